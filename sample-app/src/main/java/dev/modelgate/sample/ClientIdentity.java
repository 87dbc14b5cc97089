package dev.modelgate.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Who a client is, for billing and the response cache: the SHA-256 of its Authorization header, so
 * that no API key is ever stored; "anonymous" without one, or with a blank one (as the idempotency
 * filter sees it: a blank header identifies nobody).
 */
public final class ClientIdentity {

	private ClientIdentity() {
	}

	public static String of(String authorization) {
		if (authorization == null || authorization.isBlank()) {
			return "anonymous";
		}
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(digest.digest(authorization.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
