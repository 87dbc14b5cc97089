package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.Hashing;
import java.util.HexFormat;

/**
 * Derives stable keys from a run's key, so that each step of the run, and each downstream API it
 * calls, gets a key of its own that is the same on every retry of the run: a tool-level key for
 * {@link IdempotencyTemplate}, or the {@code Idempotency-Key} sent to a payment or mail API.
 *
 * <p>The derivation is fixed, so other programs can reproduce it: SHA-256 over the byte {@code 'K'}
 * followed by each part as its UTF-8 length (4 bytes, big-endian) and its UTF-8 bytes. Length
 * prefixes keep {@code ("ab", "c")} and {@code ("a", "bc")} apart. {@link #hex} is that digest in
 * lower-case hex (64 characters); {@link #uuid} is its first 16 bytes as an RFC 9562 version 8
 * (custom) UUID, for APIs that insist on UUID-shaped keys. Neither reveals the run key.
 *
 * <p>Derive from something that is the same on every retry and private to the caller: the run key
 * the client sent, or better the scope of the attempt holding it ({@code IdempotencyContext.current()}),
 * which also separates two clients that happen to pick the same key.
 */
public final class DerivedKeys {

	private DerivedKeys() {
	}

	/**
	 * The key of one tool call of a run: {@link #uuid} of {@code runKey}, {@code stepId} and
	 * {@code toolName}.
	 * @param runKey the run's key, or the scope of the attempt holding it
	 * @param stepId the step of the run
	 * @param toolName the tool called in that step
	 * @return the tool call's key, UUID-shaped
	 */
	public static String forTool(String runKey, String stepId, String toolName) {
		return uuid(runKey, stepId, toolName);
	}

	/**
	 * {@return the first 16 bytes of the derivation, formatted as a version 8 UUID (lower case)}
	 * @param parts what the key derives from, in order
	 */
	public static String uuid(String... parts) {
		byte[] digest = digest(parts);
		// Version 8 (custom) in the high nibble of byte 6, RFC 9562 variant (10xx) in byte 8.
		digest[6] = (byte) ((digest[6] & 0x0F) | 0x80);
		digest[8] = (byte) ((digest[8] & 0x3F) | 0x80);
		String hex = HexFormat.of().formatHex(digest, 0, 16);
		return hex.substring(0, 8) + "-" + hex.substring(8, 12) + "-" + hex.substring(12, 16) + "-"
				+ hex.substring(16, 20) + "-" + hex.substring(20, 32);
	}

	/**
	 * {@return the whole derivation in lower-case hex, 64 characters}
	 * @param parts what the key derives from, in order
	 */
	public static String hex(String... parts) {
		return HexFormat.of().formatHex(digest(parts));
	}

	private static byte[] digest(String... parts) {
		if (parts.length == 0) {
			throw new IllegalArgumentException("At least one part is needed to derive a key");
		}
		Hashing hashing = Hashing.sha256().tag('K');
		for (String part : parts) {
			if (part == null) {
				throw new IllegalArgumentException("A part of a derived key is null");
			}
			hashing.field(part);
		}
		return hashing.digest();
	}

}
