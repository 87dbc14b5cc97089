package dev.modelgate.idempotency.core.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * SHA-256 of what makes two requests "the same request": method, path, canonical query and
 * canonical body. A retry must match the fingerprint stored with its key, or it is refused as a key
 * reused for a different request.
 */
public final class RequestFingerprint {

	private static final Comparator<Map.Entry<String, String>> BY_NAME_THEN_VALUE = Map.Entry
		.<String, String>comparingByKey()
		.thenComparing(Map.Entry.comparingByValue());

	private RequestFingerprint() {
	}

	/**
	 * Computes the fingerprint of a request.
	 * @param method the HTTP method
	 * @param route the path the request addressed (with its path variables), or for non-HTTP work the
	 * operation's name
	 * @param rawQuery the undecoded query string, or {@code null}
	 * @param body the canonical body (see {@link CanonicalBody})
	 * @return lower-case hex SHA-256
	 */
	public static String of(String method, String route, String rawQuery, CanonicalBody body) {
		Hashing hashing = Hashing.sha256().field(method).field(route);
		List<Map.Entry<String, String>> query = canonicalQuery(rawQuery);
		hashing.length(query.size());
		for (Map.Entry<String, String> parameter : query) {
			hashing.field(parameter.getKey()).field(parameter.getValue());
		}
		body.writeTo(hashing);
		return hashing.hex();
	}

	/** Query parameters decoded and sorted by name then value, so their order does not matter. */
	static List<Map.Entry<String, String>> canonicalQuery(String rawQuery) {
		List<Map.Entry<String, String>> parameters = new ArrayList<>();
		if (rawQuery == null || rawQuery.isEmpty()) {
			return parameters;
		}
		for (String pair : rawQuery.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String name = (equals < 0) ? pair : pair.substring(0, equals);
			String value = (equals < 0) ? "" : pair.substring(equals + 1);
			parameters.add(Map.entry(decode(name), decode(value)));
		}
		parameters.sort(BY_NAME_THEN_VALUE);
		return parameters;
	}

	private static String decode(String component) {
		try {
			return URLDecoder.decode(component, StandardCharsets.UTF_8);
		}
		catch (IllegalArgumentException ex) {
			// Malformed percent-encoding: the raw text still identifies the request exactly.
			return component;
		}
	}

}
