package dev.modelgate.idempotency.web;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.modelgate.idempotency.core.SpentKey;

/**
 * A refusal the filter answers instead of running the handler (or instead of replaying), before any
 * rendering: the renderer decides the body format.
 *
 * @param status the HTTP status
 * @param code the stable snake_case code, for example {@code idempotency_key_reused}
 * @param title a short human summary of the code
 * @param detail what happened to this request
 * @param retryAfter when to look again, or {@code null} when a retry with the same key is pointless
 * @param extensions RFC 9457 extension members besides {@code code}, in order; empty for most problems
 */
public record IdempotencyProblem(int status, String code, String title, String detail, Duration retryAfter,
		Map<String, Object> extensions) {

	/**
	 * A problem without extension members besides {@code code}.
	 * @param status the HTTP status
	 * @param code the stable snake_case code
	 * @param title a short human summary of the code
	 * @param detail what happened to this request
	 * @param retryAfter when to look again, or {@code null}
	 */
	public IdempotencyProblem(int status, String code, String title, String detail, Duration retryAfter) {
		this(status, code, title, detail, retryAfter, Map.of());
	}

	/** Base of every problem {@code type} URI. */
	public static final String TYPE_BASE = "https://modelgate.dev/problems/";

	/**
	 * {@return 400 {@code idempotency_key_invalid}}
	 * @param detail what is wrong with the key, safe to show the client
	 */
	public static IdempotencyProblem keyInvalid(String detail) {
		return new IdempotencyProblem(400, "idempotency_key_invalid", "Invalid idempotency key", detail, null);
	}

	/**
	 * {@return 400 {@code idempotency_key_missing}}
	 * @param headerName the header that carries the key
	 */
	public static IdempotencyProblem keyMissing(String headerName) {
		return new IdempotencyProblem(400, "idempotency_key_missing", "Idempotency key required",
				"This endpoint requires an " + headerName + " header.", null);
	}

	/**
	 * {@return 400 {@code idempotency_client_unidentified}}
	 * @param identityHeader the header that identifies unauthenticated clients
	 */
	public static IdempotencyProblem clientUnidentified(String identityHeader) {
		return new IdempotencyProblem(400, "idempotency_client_unidentified", "Client not identified",
				"A request with an idempotency key must identify its client (an authenticated principal or the "
						+ identityHeader + " header), so that no other client can be answered with its result.",
				null);
	}

	/**
	 * {@return 400 {@code idempotency_client_ambiguous}}
	 * @param identityHeader the header that came more than once
	 */
	public static IdempotencyProblem clientAmbiguous(String identityHeader) {
		return new IdempotencyProblem(400, "idempotency_client_ambiguous", "Client identity ambiguous",
				"The " + identityHeader + " header came more than once, so the client it identifies is ambiguous; "
						+ "send it once (a proxy that appends it, instead of replacing it, would let a client choose "
						+ "whose results it gets).",
				null);
	}

	/**
	 * {@return 413 {@code idempotency_request_too_large}}
	 * @param maxBytes the largest body accepted
	 */
	public static IdempotencyProblem requestTooLarge(long maxBytes) {
		return new IdempotencyProblem(413, "idempotency_request_too_large", "Request too large",
				"A request with an idempotency key may have a body of at most " + maxBytes + " bytes.", null);
	}

	/**
	 * {@return 400 {@code idempotency_request_unreadable}}
	 * @param reason why the body could not be read, safe to show the client
	 */
	public static IdempotencyProblem requestUnreadable(String reason) {
		return new IdempotencyProblem(400, "idempotency_request_unreadable", "Request unreadable",
				"The request body could not be read to fingerprint it (" + reason + ").", null);
	}

	/**
	 * {@return {@code idempotency_key_reused}}
	 * @param status the status to answer, 422 unless configured otherwise
	 */
	public static IdempotencyProblem keyReused(int status) {
		return new IdempotencyProblem(status, "idempotency_key_reused", "Idempotency key reused",
				"This idempotency key was already used with a different request. Use a new key for a new request.",
				null);
	}

	/**
	 * {@return 409 {@code idempotency_request_in_progress}}
	 * @param retryAfter when to look again
	 */
	public static IdempotencyProblem inProgress(Duration retryAfter) {
		return new IdempotencyProblem(409, "idempotency_request_in_progress", "Request in progress",
				"A request with this idempotency key is still being processed. Retry later with the same key.",
				retryAfter);
	}

	/** {@return 410 {@code idempotency_result_unavailable}} */
	public static IdempotencyProblem resultUnavailable() {
		return new IdempotencyProblem(410, "idempotency_result_unavailable", "Result unavailable",
				"The operation for this idempotency key was carried out, but its result was not kept. "
						+ "Retrying with this key will not run it again.",
				null);
	}

	/**
	 * {@return 410 {@code idempotency_key_spent}, with the extension members {@code original_status}
	 * (a number for an HTTP status), {@code completed_at} (RFC 3339) and, when one was kept,
	 * {@code resource}}
	 * @param spent what the store kept of the completed request
	 */
	public static IdempotencyProblem keySpent(SpentKey spent) {
		Map<String, Object> extensions = new LinkedHashMap<>();
		extensions.put("original_status",
				spent.status().matches("[0-9]{3}") ? (Object) Integer.valueOf(spent.status()) : spent.status());
		extensions.put("completed_at", spent.completedAt().toString());
		if (spent.resource() != null) {
			extensions.put("resource", spent.resource());
		}
		return new IdempotencyProblem(410, "idempotency_key_spent", "Idempotency key spent",
				"The request for this idempotency key was carried out (status " + spent.status() + ", at "
						+ spent.completedAt() + ") and its response is no longer kept. Retrying with this key will "
						+ "not run it again; use a new key for a new request.",
				null, Collections.unmodifiableMap(extensions));
	}

	/**
	 * {@return 404 {@code idempotency_key_unknown}}: the status resource knows no such request for this
	 * client (the key was never used by it with that request, or its record is gone)
	 */
	public static IdempotencyProblem keyUnknown() {
		return new IdempotencyProblem(404, "idempotency_key_unknown", "Idempotency key unknown",
				"No request with this idempotency key is known for this client.", null);
	}

	/**
	 * {@return 400 {@code idempotency_status_token_invalid}}
	 * @param detail what is wrong with the status path's token, safe to show the client
	 */
	public static IdempotencyProblem statusTokenInvalid(String detail) {
		return new IdempotencyProblem(400, "idempotency_status_token_invalid", "Invalid status token",
				detail + " Use the Location of the 409 answered to the request.", null);
	}

	/**
	 * {@return 503 {@code idempotency_store_unavailable}}
	 * @param retryAfter when to look again
	 */
	public static IdempotencyProblem storeUnavailable(Duration retryAfter) {
		return new IdempotencyProblem(503, "idempotency_store_unavailable", "Idempotency store unavailable",
				"The request was not processed because idempotency could not be guaranteed. Retry later with the same key.",
				retryAfter);
	}

	/** {@return the RFC 9457 {@code type}: the base URI and the code with dashes} */
	public String type() {
		return TYPE_BASE + this.code.replace('_', '-');
	}

}
