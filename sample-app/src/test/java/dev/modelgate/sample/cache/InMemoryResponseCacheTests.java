package dev.modelgate.sample.cache;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryResponseCacheTests {

	private final SteppingClock clock = new SteppingClock();

	private final InMemoryResponseCache cache = new InMemoryResponseCache(Duration.ofMinutes(5), 2, this.clock);

	@Test
	void servesAnswerUntilTtlRunsOut() {
		this.cache.put("a", new byte[] { 1 });

		this.clock.advance(Duration.ofMinutes(5).minusMillis(1));
		assertThat(this.cache.get("a")).hasValueSatisfying((body) -> assertThat(body).containsExactly(1));
		this.clock.advance(Duration.ofMillis(1));
		assertThat(this.cache.get("a")).isEmpty();
	}

	@Test
	void dropsLeastRecentlyUsedAnswerBeyondMaxEntries() {
		this.cache.put("a", new byte[] { 1 });
		this.cache.put("b", new byte[] { 2 });
		this.cache.get("a");

		this.cache.put("c", new byte[] { 3 });

		assertThat(this.cache.get("a")).isPresent();
		assertThat(this.cache.get("b")).isEmpty();
		assertThat(this.cache.get("c")).isPresent();
	}

	private static final class SteppingClock extends Clock {

		private Instant now = Instant.parse("2025-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public Instant instant() {
			return this.now;
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

	}

}
