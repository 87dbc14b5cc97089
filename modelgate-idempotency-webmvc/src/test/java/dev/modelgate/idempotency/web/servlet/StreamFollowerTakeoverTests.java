package dev.modelgate.idempotency.web.servlet;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.SseEvents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A follower whose next read comes after its stream's holder died, its lease ran out and a retry
 * took the key over and began a new stream: it ends with {@code idempotency_stream_interrupted}
 * instead of carrying on with the new attempt's events after the old one's.
 */
class StreamFollowerTakeoverTests {

	private static final Duration LEASE = Duration.ofSeconds(2);

	private final MutableClock clock = new MutableClock();

	private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore(this.clock);

	@Test
	void followerEndsInterruptedWhenAnotherAttemptTookTheStreamOver() throws Exception {
		byte[] head = HttpResponseRecord.encode(200, Map.of("Content-Type", List.of("text/event-stream")), new byte[0], 0)
			.payload();
		assertThat(this.store.begin("scope", "fp", "dead", LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		this.store.openStream("scope", "dead", head);
		this.store.appendEvents("scope", "dead", 1, List.of(event("a1"), event("a2"), event("a3")));
		ScheduledExecutorService followers = Executors.newSingleThreadScheduledExecutor();
		StreamFollower follower = new StreamFollower(this.store, new ReplayHeaders(List.of()), "Idempotent-Replayed",
				new StreamSettings(10_000, 8L * 1024 * 1024, Duration.ofMinutes(10), Duration.ofMillis(1500)),
				followers);
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setAsyncSupported(true);
		MockHttpServletResponse response = new MockHttpServletResponse();
		CountDownLatch done = new CountDownLatch(1);

		boolean followed = follower.follow("scope", LastEventId.NONE, request, response, () -> {
		}, done::countDown);

		// What the store held was sent on the request thread, which the follower then gave back.
		assertThat(followed).isTrue();
		assertThat(request.isAsyncStarted()).isTrue();
		assertThat(done.getCount()).isOne();
		await().atMost(Duration.ofSeconds(5)).until(() -> response.getContentAsString().contains("a3"));
		// Between two polls: the holder's lease runs out, and a retry takes over and streams anew.
		this.clock.advance(LEASE.plusSeconds(1));
		assertThat(this.store.begin("scope", "fp", "retry", LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		this.store.openStream("scope", "retry", head);
		this.store.appendEvents("scope", "retry", 1,
				List.of(event("b1"), event("b2"), event("b3"), event("b4"), event("b5")));
		this.store.completeStream("scope", "retry", Duration.ofMinutes(5));

		assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
		followers.shutdownNow();
		String body = response.getContentAsString(StandardCharsets.UTF_8);
		assertThat(body).contains("a1", "a2", "a3").doesNotContain("b4", "b5");
		assertThat(body).endsWith(new String(SseEvents.terminal("idempotency_stream_interrupted",
				"the stream ended before its end; a retry with the same key runs it again"), StandardCharsets.UTF_8));
		assertThat(response.getHeader("Idempotent-Replayed")).isEqualTo("true");
	}

	private static byte[] event(String data) {
		return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

	private static final class MutableClock extends Clock {

		private volatile Instant now = Instant.parse("2026-12-01T08:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
