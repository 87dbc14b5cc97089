package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import dev.modelgate.idempotency.core.JsonPointer;

import static org.assertj.core.api.Assertions.assertThat;

/** Compares the fingerprint of a body as hashed now with the one {@link JacksonCanonicalBodyReference} gives. */
final class JacksonEquivalence {

	private JacksonEquivalence() {
	}

	static void assertSameFingerprint(byte[] body, String... ignoreFields) {
		assertSameFingerprint(body, 0, body.length, ignoreFields);
	}

	static void assertSameFingerprint(byte[] buffer, int offset, int length, String... ignoreFields) {
		String reference = reference(buffer, offset, length, ignoreFields);
		String current = current(buffer, offset, length, ignoreFields);
		if (!current.equals(reference) && contains(buffer, offset, length, (byte) 0xFF)) {
			// Jackson finds names in a symbol table shared by every parse before it decodes them, and pads
			// the last 4 bytes of a name with 0xFF there: a name holding the invalid byte 0xFF can so be
			// taken for one seen earlier ("\xFFa" for "a"). Which, depends on history; invalid UTF-8 is
			// always compared as bytes now.
			assertThat(current).isEqualTo(bytes(buffer, offset, length));
			return;
		}
		assertThat(current).as("fingerprint of %s", describe(buffer, offset, length)).isEqualTo(reference);
	}

	/**
	 * The fingerprint of the body read from one array, checked to be the same read in chunks of 1 and
	 * 4 bytes, so that every generated body also crosses chunk boundaries everywhere it can (a body
	 * over 64 KiB, in chunks of the size requests are read in).
	 */
	static String current(byte[] buffer, int offset, int length, String... ignoreFields) {
		List<JsonPointer> pointers = CanonicalBody.pointers(ignoreFields);
		String whole = hash(CanonicalBody.json(buffer, offset, length, pointers));
		int[] shifts = (length <= 65536) ? new int[] { 0, 2 } : new int[] { 16 };
		for (int shift : shifts) {
			ByteChunks chunks;
			try {
				chunks = ByteChunks.read(new ByteArrayInputStream(buffer, offset, length), length, shift);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			assertThat(hash(CanonicalBody.json(chunks, pointers))).as("read in chunks of 2^%d", shift)
				.isEqualTo(whole);
		}
		return whole;
	}

	static String reference(byte[] buffer, int offset, int length, String... ignoreFields) {
		Hashing hashing = Hashing.sha256();
		JacksonCanonicalBodyReference
			.json(buffer, offset, length, JacksonCanonicalBodyReference.pointers(ignoreFields))
			.writeTo(hashing);
		return hashing.hex();
	}

	static String bytes(byte[] buffer, int offset, int length) {
		return hash(CanonicalBody.bytes(buffer, offset, length));
	}

	static String hash(CanonicalBody body) {
		Hashing hashing = Hashing.sha256();
		body.writeTo(hashing);
		return hashing.hex();
	}

	private static boolean contains(byte[] buffer, int offset, int length, byte value) {
		for (int i = offset; i < offset + length; i++) {
			if (buffer[i] == value) {
				return true;
			}
		}
		return false;
	}

	private static String describe(byte[] buffer, int offset, int length) {
		StringBuilder description = new StringBuilder();
		int shown = Math.min(length, 200);
		for (int i = offset; i < offset + shown; i++) {
			int b = buffer[i] & 0xFF;
			description.append((b >= 0x20 && b < 0x7F) ? String.valueOf((char) b) : String.format("\\x%02X", b));
		}
		return (shown < length) ? description + "... (" + length + " bytes)" : description.toString();
	}

}
