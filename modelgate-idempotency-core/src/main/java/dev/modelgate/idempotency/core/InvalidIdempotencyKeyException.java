package dev.modelgate.idempotency.core;

/** Thrown when an idempotency key is present but malformed; the message is safe to show the client. */
public class InvalidIdempotencyKeyException extends RuntimeException {

	/** @param message what is wrong with the key, safe to show the client */
	public InvalidIdempotencyKeyException(String message) {
		super(message);
	}

}
