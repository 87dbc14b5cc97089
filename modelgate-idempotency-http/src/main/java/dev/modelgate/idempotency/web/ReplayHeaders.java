package dev.modelgate.idempotency.web;

import java.util.Collection;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which response headers are stored and replayed: a fixed allowlist plus configured additions,
 * minus headers that must never be replayed to another attempt (credentials, cookies, hop-by-hop
 * headers, and the framing the replay computes itself).
 */
public final class ReplayHeaders {

	static final Set<String> DEFAULTS = Set.of("Content-Type", "Content-Language", "Content-Encoding",
			"Content-Disposition", "Location", "ETag", "Last-Modified", "Cache-Control", "Expires", "Link", "Vary");

	static final Set<String> NEVER = Set.of("Set-Cookie", "Set-Cookie2", "Authorization", "WWW-Authenticate",
			"Proxy-Authenticate", "Proxy-Authorization", "Connection", "Keep-Alive", "TE", "Trailer",
			"Transfer-Encoding", "Upgrade", "Content-Length");

	private final Set<String> allowed = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);

	/** @param additional headers replayed besides the built-in allowlist; the never-replayed ones stay out */
	public ReplayHeaders(Collection<String> additional) {
		this.allowed.addAll(DEFAULTS);
		this.allowed.addAll(additional);
		Set<String> never = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
		never.addAll(NEVER);
		this.allowed.removeAll(never);
	}

	/**
	 * {@return whether a recorded response's header is replayed}
	 * @param headerName the header, in any case
	 */
	public boolean isReplayed(String headerName) {
		return this.allowed.contains(headerName);
	}

}
