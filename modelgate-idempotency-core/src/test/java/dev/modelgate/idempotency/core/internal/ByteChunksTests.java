package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

class ByteChunksTests {

	@Test
	void largeBodyIsHeldInChunksFarBelowHalfARegion() throws IOException {
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(new byte[1 << 20]), 1 << 20);
		assertThat(chunks.length()).isEqualTo(1 << 20);
		assertThat(chunks.chunkCount()).isEqualTo((1 << 20) / ByteChunks.CHUNK_SIZE);
		for (int i = 0; i < chunks.chunkCount(); i++) {
			assertThat(chunks.chunk(i)).hasSize(ByteChunks.CHUNK_SIZE);
		}
	}

	@Test
	void streamGivesBackWhatWasRead() throws IOException {
		byte[] body = randomBytes(200_003);
		for (long expected : new long[] { -1, 0, 1000, 200_003, 300_000 }) {
			ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(body), expected, 10);
			assertThat(chunks.length()).isEqualTo(body.length);
			assertThat(chunks.newInputStream().readAllBytes()).as("expected %d", expected).isEqualTo(body);
			assertThat(chunks.toByteArray()).isEqualTo(body);
		}
	}

	@Test
	void lastChunkIsSizedByTheExpectedLength() throws IOException {
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(new byte[1500]), 1500, 10);
		assertThat(chunks.chunkCount()).isEqualTo(2);
		assertThat(chunks.chunk(1)).hasSize(1500 - 1024);
	}

	@Test
	void streamReadsByteByByteAndSkips() throws IOException {
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(new byte[] { 1, 2, 3, 4, 5 }), -1, 1);
		InputStream in = chunks.newInputStream();
		assertThat(in.read()).isEqualTo(1);
		assertThat(in.skip(2)).isEqualTo(2);
		assertThat(in.available()).isEqualTo(2);
		assertThat(in.read(new byte[8], 0, 8)).isEqualTo(2);
		assertThat(in.read()).isEqualTo(-1);
		assertThat(in.read(new byte[8], 0, 8)).isEqualTo(-1);
	}

	@Test
	void emptyStreamIsAnEmptyBody() throws IOException {
		for (long expected : new long[] { -1, 0, 10 }) {
			ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(new byte[0]), expected);
			assertThat(chunks.length()).isZero();
			assertThat(chunks.chunkCount()).isZero();
			assertThat(chunks.newInputStream().read()).isEqualTo(-1);
		}
	}

	@Test
	void bytesHashChunkByChunkAsFromOneArray() throws IOException {
		byte[] body = randomBytes(70_001);
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(body), body.length, 7);
		assertThat(RequestFingerprint.of("PUT", "/a", null, CanonicalBody.bytes(chunks)))
			.isEqualTo(RequestFingerprint.of("PUT", "/a", null, CanonicalBody.bytes(body)));
	}

	@Test
	void plainTextStopsAtTheFirstByteThatEndsItWhereverItIs() throws IOException {
		// Every byte value at every position of a word and across chunk ends (chunks of 16 bytes here),
		// against a byte-at-a-time scan.
		for (int stopper = 0; stopper < 256; stopper++) {
			for (int at = 0; at < 40; at++) {
				byte[] body = new byte[40];
				Arrays.fill(body, (byte) 'a');
				body[at] = (byte) stopper;
				ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(body), body.length, 4);
				for (int start = 0; start < body.length; start++) {
					for (int end : new int[] { start, (start + body.length) / 2, body.length }) {
						assertThat(chunks.skipPlainText(start, end)).as("byte %d at %d, from %d to %d", stopper, at, start, end)
							.isEqualTo(naiveSkip(body, start, end));
					}
				}
			}
		}
		byte[] random = randomBytes(100_000);
		for (int i = 0; i < random.length; i++) {
			// Mostly plain text, so that long runs are skipped eight bytes at a time.
			if (random[i] < 0x20 || random[i] == '"' || random[i] == '\\') {
				random[i] = (random[i] % 97 == 0) ? random[i] : (byte) 'x';
			}
		}
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(random), random.length);
		for (int start = 0; start < random.length; start = naiveSkip(random, start, random.length) + 1) {
			assertThat(chunks.skipPlainText(start, random.length)).isEqualTo(naiveSkip(random, start, random.length));
		}
	}

	private static int naiveSkip(byte[] body, int start, int end) {
		for (int i = start; i < end; i++) {
			int b = body[i] & 0xFF;
			if (b < 0x20 || b == '"' || b == '\\' || b >= 0x80) {
				return i;
			}
		}
		return end;
	}

	@Test
	void failingStreamFailsTheRead() {
		InputStream failing = new InputStream() {
			@Override
			public int read() throws IOException {
				throw new IOException("reset");
			}
		};
		assertThatIOException().isThrownBy(() -> ByteChunks.read(failing, -1));
	}

	private static byte[] randomBytes(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

}
