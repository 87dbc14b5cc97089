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
	 * A stream cannot be replayed byte for byte, so a key would promise what the gateway cannot keep.
	 */
	public static InvalidChatRequestException streamWithIdempotencyKey() {
		return new InvalidChatRequestException("idempotency_not_supported_for_stream",
				"Streaming responses cannot be made idempotent: send the request without an Idempotency-Key header, "
						+ "or with \"stream\": false.");
	}

	public static InvalidChatRequestException streamNotSupported() {
		return new InvalidChatRequestException("stream_not_supported",
				"This gateway does not stream: send the request with \"stream\": false.");
	}

	public String getCode() {
		return this.code;
	}

}
