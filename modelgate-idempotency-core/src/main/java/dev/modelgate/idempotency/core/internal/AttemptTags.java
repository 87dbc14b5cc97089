package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * The short public name of an attempt, for the ids of its stream's events: eight URL-safe characters
 * of the SHA-256 of its lease token, so that a client can name the attempt it followed without ever
 * seeing the token that fences the record.
 */
public final class AttemptTags {

	private static final int BYTES = 6;

	private AttemptTags() {
	}

	public static String of(String token) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
			return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, BYTES));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

}
