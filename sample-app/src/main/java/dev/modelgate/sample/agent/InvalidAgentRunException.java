package dev.modelgate.sample.agent;

/**
 * The agent run request cannot be used; answered 400.
 */
public class InvalidAgentRunException extends RuntimeException {

	private final String code;

	InvalidAgentRunException(String code, String message) {
		super(message);
		this.code = code;
	}

	public String getCode() {
		return this.code;
	}

}
