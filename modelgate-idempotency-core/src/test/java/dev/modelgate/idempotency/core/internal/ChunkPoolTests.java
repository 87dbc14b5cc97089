package dev.modelgate.idempotency.core.internal;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

class ChunkPoolTests {

	private static final int CHUNK = ByteChunks.CHUNK_SIZE;

	@Test
	void bodyReadAgainReusesTheChunksTheLastOneGaveBack() throws IOException {
		ChunkPool pool = ChunkPool.of(16);
		byte[] first = randomBytes(3 * CHUNK + 10);
		ByteChunks one = ByteChunks.read(new ByteArrayInputStream(first), first.length, pool);
		byte[][] used = { one.chunk(0), one.chunk(1), one.chunk(2) };
		one.release();
		assertThat(pool.available()).isEqualTo(3);

		byte[] second = randomBytes(3 * CHUNK);
		ByteChunks two = ByteChunks.read(new ByteArrayInputStream(second), -1, pool);
		// Of unknown length, the body took a fourth chunk to find its end, and gave it back empty.
		assertThat(pool.available()).isEqualTo(1);
		Set<byte[]> reused = Collections.newSetFromMap(new IdentityHashMap<>());
		reused.addAll(List.of(two.chunk(0), two.chunk(1), two.chunk(2)));
		assertThat(reused).hasSize(3).allMatch((chunk) -> chunk == used[0] || chunk == used[1] || chunk == used[2]);
		// Nothing of the first body shows through: each reused chunk is overwritten where it is read.
		assertThat(two.newInputStream().readAllBytes()).isEqualTo(second);
		assertThat(RequestFingerprint.of("POST", "/", null, CanonicalBody.bytes(two)))
			.isEqualTo(RequestFingerprint.of("POST", "/", null, CanonicalBody.bytes(second)));
	}

	@Test
	void onlyFullChunksArePooledAndNeverMoreThanTheCapacity() throws IOException {
		ChunkPool pool = ChunkPool.of(2);
		ByteChunks small = ByteChunks.read(new ByteArrayInputStream(new byte[100]), 100, pool);
		small.release();
		assertThat(pool.available()).isZero();

		ByteChunks large = ByteChunks.read(new ByteArrayInputStream(new byte[5 * CHUNK]), 5 * CHUNK, pool);
		large.release();
		assertThat(pool.available()).isEqualTo(2);
	}

	@Test
	void chunksTakenByAFailingReadGoBack() {
		ChunkPool pool = ChunkPool.of(16);
		InputStream failsAfterTwoChunks = new SequenceInputStream(new ByteArrayInputStream(new byte[2 * CHUNK + 3]),
				new InputStream() {
					@Override
					public int read() throws IOException {
						throw new IOException("reset");
					}
				});
		assertThatIOException().isThrownBy(() -> ByteChunks.read(failsAfterTwoChunks, -1, pool));
		assertThat(pool.available()).isEqualTo(3);
	}

	@Test
	void streamLongerThanDeclaredGoesOnInAPooledChunk() throws IOException {
		ChunkPool pool = ChunkPool.of(16);
		byte[] body = randomBytes(CHUNK + 100);
		ByteChunks chunks = ByteChunks.read(new ByteArrayInputStream(body), 10, pool);
		assertThat(chunks.newInputStream().readAllBytes()).isEqualTo(body);
		chunks.release();
		// The declared 10 bytes went on in one full chunk, and the last 100 bytes in another.
		assertThat(pool.available()).isEqualTo(2);
	}

	@Test
	void bodyOfAnArrayOrWithoutPoolIsNeverGivenToOne() throws IOException {
		byte[] exactlyAChunk = new byte[CHUNK];
		ByteChunks wrapped = ByteChunks.of(exactlyAChunk);
		wrapped.release();
		assertThat(wrapped.newInputStream().readAllBytes()).hasSize(CHUNK);
		ByteChunks unpooled = ByteChunks.read(new ByteArrayInputStream(exactlyAChunk), CHUNK);
		unpooled.release();
		assertThat(unpooled.newInputStream().readAllBytes()).hasSize(CHUNK);
		assertThat(ChunkPool.NONE.available()).isZero();
	}

	@Test
	void poolForTheHeapKeepsAnEighthOfItAtMost64MiB() {
		assertThat(ChunkPool.capacityForHeap(256L << 20)).isEqualTo((32 << 20) / CHUNK);
		assertThat(ChunkPool.capacityForHeap(8L << 30)).isEqualTo((64 << 20) / CHUNK);
		assertThat(ChunkPool.capacityForHeap(256L << 10)).isZero();
		assertThat(ChunkPool.forHeap().capacity())
			.isEqualTo(ChunkPool.capacityForHeap(Runtime.getRuntime().maxMemory()));
	}

	@Test
	void trimLetsGoOfWhatNoRequestTookSinceTheLastTrim() throws IOException {
		ChunkPool pool = ChunkPool.of(8);
		ByteChunks.read(new ByteArrayInputStream(new byte[4 * CHUNK]), 4 * CHUNK, pool).release();
		// The four came in since the last trim, which therefore cannot say they sat unused.
		assertThat(pool.trim()).isZero();
		assertThat(pool.available()).isEqualTo(4);

		// One body of one chunk: three of the four were never taken in this interval.
		ByteChunks.read(new ByteArrayInputStream(new byte[CHUNK]), CHUNK, pool).release();
		assertThat(pool.trim()).isEqualTo(3);
		assertThat(pool.available()).isEqualTo(1);

		assertThat(pool.trim()).isEqualTo(1);
		assertThat(pool.available()).isZero();
		assertThat(pool.trim()).isZero();
		assertThat(ChunkPool.NONE.trim()).isZero();
	}

	private static byte[] randomBytes(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

}
