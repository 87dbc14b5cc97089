package dev.modelgate.idempotency.actuate;

/**
 * A look-up or deletion of {@link IdempotencyRecords} named a record in a way that cannot work: an
 * invalid key, a malformed scope hash, more than one client. The Actuator endpoint answers it with
 * 400.
 */
public class InvalidRecordQueryException extends IllegalArgumentException {

	private final String reason;

	/**
	 * @param message what is wrong, for the caller
	 * @param reason a short reason that never repeats what was sent, for logs
	 */
	public InvalidRecordQueryException(String message, String reason) {
		super(message);
		this.reason = reason;
	}

	/** {@return a short reason that never repeats what was sent} */
	public String getReason() {
		return this.reason;
	}

}
