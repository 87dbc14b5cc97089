package dev.modelgate.idempotency.core;

import java.nio.ByteBuffer;
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

	Hashing tag(char tag) {
		this.digest.update((byte) tag);
		return this;
	}

	Hashing length(int length) {
		this.digest.update(ByteBuffer.allocate(4).putInt(length).array());
		return this;
	}

	String hex() {
		return HexFormat.of().formatHex(digest());
	}

	byte[] digest() {
		return this.digest.digest();
	}

}
