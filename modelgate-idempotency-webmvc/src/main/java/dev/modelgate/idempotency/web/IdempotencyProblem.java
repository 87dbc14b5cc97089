package dev.modelgate.idempotency.web;

import java.time.Duration;

/**
 * A refusal the filter answers instead of running the handler (or instead of replaying), before any
 * rendering: the renderer decides the body format.
 *
 * @param status the HTTP status
 * @param code the stable snake_case code, for example {@code idempotency_key_reused}
 * @param title a short human summary of the code
 * @param detail what happened to this request
 * @param retryAfter when to look again, or {@code null} when a retry with the same key is pointless
 */
public record IdempotencyProblem(int status, String code, String title, String detail, Duration retryAfter) {

	/** Base of every problem {@code type} URI. */
	public static final String TYPE_BASE = "https://modelgate.dev/problems/";

	public static IdempotencyProblem keyInvalid(String detail) {
		return new IdempotencyProblem(400, "idempotency_key_invalid", "Invalid idempotency key", detail, null);
	}

	public static IdempotencyProblem keyMissing(String headerName) {
		return new IdempotencyProblem(400, "idempotency_key_missing", "Idempotency key required",
				"This endpoint requires an " + headerName + " header.", null);
	}

	public static IdempotencyProblem clientUnidentified(String identityHeader) {
		return new IdempotencyProblem(400, "idempotency_client_unidentified", "Client not identified",
				"A request with an idempotency key must identify its client (an authenticated principal or the "
						+ identityHeader + " header), so that no other client can be answered with its result.",
				null);
	}

	public static IdempotencyProblem requestTooLarge(long maxBytes) {
		return new IdempotencyProblem(413, "idempotency_request_too_large", "Request too large",
				"A request with an idempotency key may have a body of at most " + maxBytes + " bytes.", null);
	}

	public static IdempotencyProblem requestUnreadable(String reason) {
		return new IdempotencyProblem(400, "idempotency_request_unreadable", "Request unreadable",
				"The request body could not be read to fingerprint it (" + reason + ").", null);
	}

	public static IdempotencyProblem keyReused(int status) {
		return new IdempotencyProblem(status, "idempotency_key_reused", "Idempotency key reused",
				"This idempotency key was already used with a different request. Use a new key for a new request.",
				null);
	}

	public static IdempotencyProblem inProgress(Duration retryAfter) {
		return new IdempotencyProblem(409, "idempotency_request_in_progress", "Request in progress",
				"A request with this idempotency key is still being processed. Retry later with the same key.",
				retryAfter);
	}

	public static IdempotencyProblem resultUnavailable() {
		return new IdempotencyProblem(410, "idempotency_result_unavailable", "Result unavailable",
				"The operation for this idempotency key was carried out, but its result was not kept. "
						+ "Retrying with this key will not run it again.",
				null);
	}

	public static IdempotencyProblem storeUnavailable(Duration retryAfter) {
		return new IdempotencyProblem(503, "idempotency_store_unavailable", "Idempotency store unavailable",
				"The request was not processed because idempotency could not be guaranteed. Retry later with the same key.",
				retryAfter);
	}

	/** The RFC 9457 {@code type}: the base URI and the code with dashes. */
	public String type() {
		return TYPE_BASE + this.code.replace('_', '-');
	}

}
