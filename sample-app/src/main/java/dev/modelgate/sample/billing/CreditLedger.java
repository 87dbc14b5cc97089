package dev.modelgate.sample.billing;

/**
 * Client credit balances, charged once per model answer. The charge is the side effect that must
 * happen exactly once per idempotency key: a replay never reaches the ledger, and with the JDBC
 * store a charge commits in the same transaction that marks the key as applied.
 */
public interface CreditLedger {

	/** Credits every new client starts with. */
	long OPENING_BALANCE = 100_000;

	/**
	 * Takes {@code credits} from the client's balance.
	 * @param client the hashed client identity (never the raw API key)
	 * @param credits how much to take
	 */
	void charge(String client, long credits);

	/** The client's balance; {@link #OPENING_BALANCE} for a client never charged. */
	long balance(String client);

}
