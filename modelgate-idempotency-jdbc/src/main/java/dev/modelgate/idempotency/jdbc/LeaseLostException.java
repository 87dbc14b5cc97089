package dev.modelgate.idempotency.jdbc;

/**
 * The attempt running on this thread no longer holds its idempotency record (its lease ran out and
 * another attempt took over, or the record is gone). Thrown from inside a committing business
 * transaction so that it rolls back: the operation may be running elsewhere, and committing here
 * too would apply it twice.
 */
public class LeaseLostException extends RuntimeException {

	LeaseLostException(String scope) {
		super("The idempotency lease for scope " + scope
				+ " was lost to another attempt; the transaction is rolled back so the operation is not applied twice");
	}

}
