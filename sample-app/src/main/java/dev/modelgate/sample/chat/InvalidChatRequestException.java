package dev.modelgate.sample.chat;

/**
 * A chat-completion request the gateway refuses before calling the provider; answered 400
 * {@code invalid_request_error} with the code given here.
 */
public class InvalidChatRequestException extends RuntimeException {

	private final String code;

	public InvalidChatRequestException(String code, String message) {
		super(message);
		this.code = code;
	}

	/**
	 * The library does not record streams yet, so a key would promise a replay the gateway cannot give.
	 */
	public static InvalidChatRequestException streamWithIdempotencyKey() {
		return new InvalidChatRequestException("idempotency_not_supported_for_stream",
				"Streaming responses cannot be made idempotent: send the request without an Idempotency-Key header, "
						+ "or with \"stream\": false.");
	}

	public String getCode() {
		return this.code;
	}

}
