package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 with length-prefixed fields, so that no two different field lists hash the same input
 * ({@code "ab","c"} and {@code "a","bc"} differ).
 *
 * <p>A JSON body's canonical text is hashed as it is written, a byte at a time, and each
 * {@link MessageDigest#update} call costs more than the bytes it hashes; bytes and small fields are therefore
 * gathered in a buffer of {@value #BUFFER_SIZE} bytes and handed to the digest in blocks, which
 * hashes exactly the same bytes in the same order.
 */
public final class Hashing {

	/** Fields up to this size are gathered; larger ones go to the digest directly. */
	static final int BUFFER_SIZE = 512;

	private final MessageDigest digest;

	private final byte[] buffer = new byte[BUFFER_SIZE];

	private int buffered;

	private Hashing() {
		try {
			this.digest = MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
		}
	}

	public static Hashing sha256() {
		return new Hashing();
	}

	public Hashing field(String value) {
		int length = value.length();
		if (length <= BUFFER_SIZE - 4) {
			// ASCII, the usual case, is written as it is checked, each char its own UTF-8 byte, without
			// encoding a copy; at the first other char the buffer is put back and the string encoded.
			room(4 + length);
			int start = this.buffered;
			length(length);
			byte[] target = this.buffer;
			int at = this.buffered;
			for (int i = 0; i < length; i++) {
				char c = value.charAt(i);
				if (c >= 0x80) {
					this.buffered = start;
					return field(value.getBytes(StandardCharsets.UTF_8));
				}
				target[at + i] = (byte) c;
			}
			this.buffered = at + length;
			return this;
		}
		return field(value.getBytes(StandardCharsets.UTF_8));
	}

	public Hashing field(byte[] value) {
		return field(value, 0, value.length);
	}

	public Hashing field(byte[] value, int offset, int length) {
		length(length);
		return bytes(value, offset, length);
	}

	/** Hashes a body chunk by chunk, the same as {@link #field(byte[])} of its bytes. */
	public Hashing field(ByteChunks value) {
		length(value.length());
		value.update(this, 0, value.length());
		return this;
	}

	public Hashing tag(char tag) {
		room(1);
		this.buffer[this.buffered++] = (byte) tag;
		return this;
	}

	/** Hashes one byte, the low eight bits of {@code b}, with no length prefix. */
	void write(int b) {
		room(1);
		this.buffer[this.buffered++] = (byte) b;
	}

	public Hashing length(int length) {
		room(4);
		byte[] target = this.buffer;
		int at = this.buffered;
		target[at] = (byte) (length >>> 24);
		target[at + 1] = (byte) (length >>> 16);
		target[at + 2] = (byte) (length >>> 8);
		target[at + 3] = (byte) length;
		this.buffered = at + 4;
		return this;
	}

	/** Hashes {@code length} bytes of {@code value} from {@code offset}, with no length prefix. */
	public Hashing bytes(byte[] value, int offset, int length) {
		if (length > BUFFER_SIZE / 2) {
			flush();
			this.digest.update(value, offset, length);
		}
		else {
			room(length);
			System.arraycopy(value, offset, this.buffer, this.buffered, length);
			this.buffered += length;
		}
		return this;
	}

	public String hex() {
		return HexFormat.of().formatHex(digest());
	}

	public byte[] digest() {
		flush();
		return this.digest.digest();
	}

	/** Makes room for {@code needed} bytes (at most the buffer's size) in the buffer. */
	private void room(int needed) {
		if (this.buffered + needed > BUFFER_SIZE) {
			flush();
		}
	}

	private void flush() {
		if (this.buffered > 0) {
			this.digest.update(this.buffer, 0, this.buffered);
			this.buffered = 0;
		}
	}

}
