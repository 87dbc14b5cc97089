package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Buffering small fields changes nothing: the digest is SHA-256 of exactly the bytes written. */
class HashingTests {

	@Test
	void fieldsOfEverySizeHashAsTheirLengthPrefixedBytes() throws Exception {
		Random random = new Random(15);
		for (int round = 0; round < 200; round++) {
			Hashing hashing = Hashing.sha256();
			MessageDigest reference = MessageDigest.getInstance("SHA-256");
			int fields = 1 + random.nextInt(300);
			for (int i = 0; i < fields; i++) {
				switch (random.nextInt(4)) {
					case 0 -> {
						char tag = (char) ('a' + random.nextInt(26));
						hashing.tag(tag);
						reference.update((byte) tag);
					}
					case 1 -> {
						// Sizes around the buffer's and half of it, where the buffer flushes or is bypassed.
						byte[] bytes = new byte[sizeNear(random)];
						random.nextBytes(bytes);
						hashing.field(bytes);
						reference.update(lengthOf(bytes.length));
						reference.update(bytes);
					}
					case 2 -> {
						String text = text(random);
						byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
						hashing.field(text);
						reference.update(lengthOf(utf8.length));
						reference.update(utf8);
					}
					default -> {
						int length = random.nextInt(Integer.MAX_VALUE);
						hashing.length(length);
						reference.update(lengthOf(length));
					}
				}
			}
			assertThat(hashing.digest()).as("round %d", round).isEqualTo(reference.digest());
		}
	}

	private static int sizeNear(Random random) {
		int[] around = { 0, 1, Hashing.BUFFER_SIZE / 2, Hashing.BUFFER_SIZE - 4, Hashing.BUFFER_SIZE, 3 * Hashing.BUFFER_SIZE };
		return Math.max(0, around[random.nextInt(around.length)] + random.nextInt(9) - 4);
	}

	private static String text(Random random) {
		StringBuilder text = new StringBuilder();
		int length = sizeNear(random);
		boolean ascii = random.nextBoolean();
		for (int i = 0; i < length; i++) {
			text.append(ascii ? (char) (0x20 + random.nextInt(0x5F)) : (char) (random.nextInt(0xD7FF) + 1));
		}
		return text.toString();
	}

	private static byte[] lengthOf(int length) {
		return new byte[] { (byte) (length >>> 24), (byte) (length >>> 16), (byte) (length >>> 8), (byte) length };
	}

}
