package dev.modelgate.idempotency.web.servlet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;

import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.internal.ByteChunks;
import dev.modelgate.idempotency.core.internal.ChunkPool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class KeyedRequestReaderTests {

	private static final IdempotentEndpoint ENDPOINT = new IdempotentEndpoint("/orders", "/orders", false,
			Duration.ofHours(1), Duration.ofSeconds(30), Duration.ZERO, List.of(), Idempotent.StoreFailure.REJECT,
			false);

	@Test
	void bodyOfAFingerprintThatFailsGivesItsPooledChunksBack() {
		ChunkPool pool = ChunkPool.of(8);
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/orders") {
			@Override
			public String getRequestURI() {
				// Read by the fingerprint alone, after the body.
				throw new IllegalStateException("no path");
			}
		};
		request.setContentType("application/json");
		request.setContent(("\"" + "x".repeat(2 * ByteChunks.CHUNK_SIZE) + "\"").getBytes(StandardCharsets.US_ASCII));

		assertThatIllegalStateException()
			.isThrownBy(() -> new KeyedRequestReader(1 << 20, pool).read(request, ENDPOINT))
			.withMessage("no path");
		// The two full chunks the body took are back; its short rest was never pooled.
		assertThat(pool.available()).isEqualTo(2);
	}

}
