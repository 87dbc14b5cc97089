package dev.modelgate.sample.error;

import org.springframework.http.HttpStatusCode;

/**
 * An error body in the shape OpenAI clients parse: {@code {"error":{"message","type","code"}}}.
 *
 * @param error the error itself
 */
public record OpenAiError(Detail error) {

	/** Type of errors caused by the request itself. */
	public static final String INVALID_REQUEST = "invalid_request_error";

	/** Type of errors on this side that the client cannot fix. */
	public static final String SERVER_ERROR = "server_error";

	/** Type of errors caused by the upstream provider. */
	public static final String UPSTREAM_ERROR = "upstream_error";

	public static OpenAiError of(String message, String type, String code) {
		return new OpenAiError(new Detail(message, type, code));
	}

	/** The type OpenAI uses for a status when nothing more specific applies. */
	public static String typeFor(HttpStatusCode status) {
		return status.is5xxServerError() ? SERVER_ERROR : INVALID_REQUEST;
	}

	/**
	 * @param message a sentence for a human
	 * @param type the broad class, for example {@code invalid_request_error}
	 * @param code the stable snake_case code a client can switch on
	 */
	public record Detail(String message, String type, String code) {
	}

}
