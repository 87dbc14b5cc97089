package dev.modelgate.idempotency.client;

import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.DerivedKeys;

/**
 * The key of one outgoing call of a run, in one place for every client ({@code RestClient},
 * {@code RestTemplate}, {@code WebClient}): {@code DerivedKeys.uuid(scope, "call", name)} for a named
 * call, else {@code DerivedKeys.uuid(scope, "request", method, uri, sha256(body))}.
 */
final class DerivedCallKeys {

	private DerivedCallKeys() {
	}

	/**
	 * @param scope the running attempt's scope
	 * @param name the call's name, or {@code null}
	 * @return the key of a named call, or {@code null} for an unnamed one (whose key needs its body)
	 */
	static @Nullable String named(String scope, @Nullable Object name) {
		return (name != null) ? DerivedKeys.uuid(scope, "call", name.toString()) : null;
	}

	/**
	 * @param scope the running attempt's scope
	 * @param method the call's method
	 * @param uri the call's URI
	 * @param body the call's body, empty for none
	 * @return the key of an unnamed call
	 */
	static String unnamed(String scope, String method, URI uri, byte[] body) {
		return DerivedKeys.uuid(scope, "request", method, uri.toString(), sha256(body));
	}

	private static String sha256(byte[] body) {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java runtime has SHA-256", ex);
		}
	}

}
