package dev.modelgate.idempotency.web;

import java.time.Duration;

/**
 * The global settings of keyed requests, the same on every web stack (the {@code modelgate.idempotency.*}
 * properties of the same names).
 *
 * @param headerName the key header
 * @param keyMaxLength the longest key accepted
 * @param maxRequestBytes the largest body buffered for a keyed request
 * @param maxResponseBytes the largest body stored for replay
 * @param retryAfter the Retry-After hint on 409 and 503
 * @param mismatchStatus the status for a key reused with another request
 * @param replayedHeaderName the header, valued {@code true}, that marks a replayed response
 * @param clientIdentityHeader the header that identifies clients, named in the problem answered to an
 * unidentified one
 * @param unidentifiedClients what a keyed request gets when its client has no identity
 */
public record KeyedRequestSettings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
		Duration retryAfter, int mismatchStatus, String replayedHeaderName, String clientIdentityHeader,
		UnidentifiedClients unidentifiedClients) {

	/** The default response header that marks a replayed response (property {@code replayed-header-name}). */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * Settings that mark replays with {@value #REPLAYED_HEADER}, Stripe's name, identify clients by
	 * {@code Authorization} and refuse keyed requests of unidentified clients.
	 * @param headerName the key header
	 * @param keyMaxLength the longest key accepted
	 * @param maxRequestBytes the largest body buffered for a keyed request
	 * @param maxResponseBytes the largest body stored for replay
	 * @param retryAfter the Retry-After hint on 409 and 503
	 * @param mismatchStatus the status for a key reused with another request
	 */
	public KeyedRequestSettings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
			Duration retryAfter, int mismatchStatus) {
		this(headerName, keyMaxLength, maxRequestBytes, maxResponseBytes, retryAfter, mismatchStatus, REPLAYED_HEADER,
				"Authorization", UnidentifiedClients.REJECT);
	}

}
