package dev.modelgate.sample.provider;

import org.springframework.http.HttpStatusCode;

/**
 * The provider did not give an answer the client could act on: a server error, a timeout or no
 * connection. The gateway answers 502, which the idempotency filter releases, so a retry with the
 * same key runs again.
 */
public class UpstreamFailureException extends RuntimeException {

	private final Reason reason;

	private UpstreamFailureException(Reason reason, String message, Throwable cause) {
		super(message, cause);
		this.reason = reason;
	}

	public static UpstreamFailureException serverError(HttpStatusCode status) {
		return new UpstreamFailureException(Reason.SERVER_ERROR,
				"The upstream provider failed with status " + status.value() + ".", null);
	}

	public static UpstreamFailureException timeout(Throwable cause) {
		return new UpstreamFailureException(Reason.TIMEOUT, "The upstream provider did not answer in time.", cause);
	}

	public static UpstreamFailureException unreachable(Throwable cause) {
		return new UpstreamFailureException(Reason.UNREACHABLE, "The upstream provider could not be reached.", cause);
	}

	/** The provider's stream broke off, or ended without {@code [DONE]}, after it had begun. */
	public static UpstreamFailureException interrupted(Throwable cause) {
		return new UpstreamFailureException(Reason.INTERRUPTED, "The upstream provider's stream broke off.", cause);
	}

	public Reason getReason() {
		return this.reason;
	}

	/** Why the provider gave no usable answer; each has the error code the client sees. */
	public enum Reason {

		/** The provider answered with a 5xx status (or another status that is not 2xx or 4xx). */
		SERVER_ERROR("upstream_server_error"),

		/** The provider did not answer within {@code modelgate.provider.timeout}. */
		TIMEOUT("upstream_timeout"),

		/** No connection could be made to the provider. */
		UNREACHABLE("upstream_unreachable"),

		/**
		 * The provider's stream broke off after it had begun: the client has part of the answer, and
		 * the stream ends with an error event.
		 */
		INTERRUPTED("upstream_stream_interrupted");

		private final String code;

		Reason(String code) {
			this.code = code;
		}

		public String code() {
			return this.code;
		}

	}

}
