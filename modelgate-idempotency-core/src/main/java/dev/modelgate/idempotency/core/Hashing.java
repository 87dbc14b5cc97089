package dev.modelgate.idempotency.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 with length-prefixed fields, so that no two different field lists hash the same input
 * ({@code "ab","c"} and {@code "a","bc"} differ).
 */
final class Hashing {

	private final MessageDigest digest;

	/** Holds a length while it is hashed, so that hashing one allocates nothing. */
	private final byte[] lengthBytes = new byte[4];

	private Hashing() {
		try {
			this.digest = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
		}
	}

	static Hashing sha256() {
		return new Hashing();
	}

	Hashing field(String value) {
		return field(value.getBytes(StandardCharsets.UTF_8));
	}

	Hashing field(byte[] value) {
		return field(value, 0, value.length);
	}

	Hashing field(byte[] value, int offset, int length) {
		length(length);
		this.digest.update(value, offset, length);
		return this;
	}

	/** Hashes a body chunk by chunk, the same as {@link #field(byte[])} of its bytes. */
	Hashing field(ByteChunks value) {
		return field(value, 0, value.length());
	}

	/** Hashes bytes of a body in place, the same as {@link #field(byte[], int, int)} of a copy. */
	Hashing field(ByteChunks value, int start, int length) {
		length(length);
		value.update(this.digest, start, length);
		return this;
	}

	Hashing tag(char tag) {
		this.digest.update((byte) tag);
		return this;
	}

	Hashing length(int length) {
		this.lengthBytes[0] = (byte) (length >>> 24);
		this.lengthBytes[1] = (byte) (length >>> 16);
		this.lengthBytes[2] = (byte) (length >>> 8);
		this.lengthBytes[3] = (byte) length;
		this.digest.update(this.lengthBytes);
		return this;
	}

	String hex() {
		return HexFormat.of().formatHex(digest());
	}

	byte[] digest() {
		return this.digest.digest();
	}

}
