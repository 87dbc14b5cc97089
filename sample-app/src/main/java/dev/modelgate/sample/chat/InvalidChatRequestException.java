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

	public String getCode() {
		return this.code;
	}

}
