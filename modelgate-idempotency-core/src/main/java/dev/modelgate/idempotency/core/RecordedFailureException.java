package dev.modelgate.idempotency.core;

/**
 * Replays a failure that the first run recorded (its {@link FailurePolicy} said
 * {@link FailurePolicy.Action#RECORD}): the work does not run again, and the caller gets the original
 * failure's class name and message. The original exception itself is not kept, since it may not be
 * serialisable and its class may not exist in the process that replays it.
 */
public class RecordedFailureException extends RuntimeException {

	/** The fully qualified class name of the exception the first run threw. */
	private final String failureType;

	/** The message of the exception the first run threw, or {@code null}. */
	private final String failureMessage;

	/**
	 * A recorded failure, as read back from the store.
	 * @param failureType the fully qualified class name of the exception the first run threw
	 * @param failureMessage its message, or {@code null}
	 */
	public RecordedFailureException(String failureType, String failureMessage) {
		super(failureType + ((failureMessage != null) ? ": " + failureMessage : ""));
		this.failureType = failureType;
		this.failureMessage = failureMessage;
	}

	/** {@return the fully qualified class name of the exception the first run threw} */
	public String getFailureType() {
		return this.failureType;
	}

	/** {@return the message of the exception the first run threw, or {@code null}} */
	public String getFailureMessage() {
		return this.failureMessage;
	}

}
