package dev.modelgate.reliability.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;

/**
 * The scope hash the gateway logs for a key of the suite's {@link Gateway}, so that a WARN line in a
 * gateway's log can be tied to the request it was about.
 */
public final class Scopes {

	private static final String ROUTE = "/v1/chat/completions";

	private Scopes() {
	}

	/**
	 * The hash of {@code key} on the chat endpoint for the suite's client: its identity is the
	 * SHA-256 of its {@code Authorization} header, as the sample app configures
	 * ({@code client-identity-header=Authorization}).
	 */
	public static String of(String key) {
		String identity = "header:" + sha256(Gateway.AUTHORIZATION);
		return IdempotencyScope.of(identity, "POST", ROUTE, IdempotencyKey.parse(List.of(key), 255)).hash();
	}

	private static String sha256(String value) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
