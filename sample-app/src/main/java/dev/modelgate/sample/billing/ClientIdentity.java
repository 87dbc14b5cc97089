package dev.modelgate.sample.billing;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Who is billed: the SHA-256 of the client's Authorization header, so no API key is stored. */
public final class ClientIdentity {

	private ClientIdentity() {
	}

	public static String of(String authorization) {
		if (authorization == null || authorization.isEmpty()) {
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
