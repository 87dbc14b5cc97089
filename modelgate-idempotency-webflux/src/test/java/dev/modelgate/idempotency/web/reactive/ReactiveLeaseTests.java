package dev.modelgate.idempotency.web.reactive;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Sinks;
import reactor.test.scheduler.VirtualTimeScheduler;

import org.springframework.http.HttpStatus;
import org.springframework.mock.web.server.MockServerWebExchange;

import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static dev.modelgate.idempotency.web.reactive.EngineFixture.endpoint;
import static dev.modelgate.idempotency.web.reactive.EngineFixture.post;
import static dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngineTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lease's heartbeat, on virtual time: the engine times its renewals on Reactor's parallel
 * scheduler, which {@link VirtualTimeScheduler} replaces when it is installed before the engine is
 * built, and the memory store judges expiry by a clock the test moves in step with it. Both clocks
 * the lease depends on are the test's, so minutes pass in no time.
 */
class ReactiveLeaseTests {

	private final VirtualTimeScheduler scheduler = VirtualTimeScheduler.getOrSet();

	private final MovableClock clock = new MovableClock();

	private final EngineFixture fixture = new EngineFixture(new InMemoryIdempotencyStore(this.clock));

	@AfterEach
	void resetSchedulers() {
		VirtualTimeScheduler.reset();
	}

	@Test
	void leaseIsRenewedWhileTheHandlerRunsSoADuplicateLongAfterTheLeaseTtlIsStillRefused() throws Exception {
		Sinks.Empty<Void> gate = Sinks.empty();
		this.fixture.handler.gate = gate.asMono();
		MockServerWebExchange first = post("k-1", "{}");
		CompletableFuture<Void> firstDone = this.fixture.handle(first, endpoint()).toFuture();

		// Three lease times (30s each) in steps of one heartbeat period (a third of the lease).
		for (int i = 0; i < 9; i++) {
			this.clock.advance(Duration.ofSeconds(10));
			this.scheduler.advanceTimeBy(Duration.ofSeconds(10));
		}
		MockServerWebExchange duplicate = post("k-1", "{}");
		CompletableFuture<Void> duplicateDone = this.fixture.handle(duplicate, endpoint()).toFuture();

		assertThat(this.fixture.handler.runs).hasValue(1);
		assertThat(this.fixture.store.renewals).hasValue(9);
		duplicateDone.get(5, TimeUnit.SECONDS);
		assertProblem(duplicate, 409, "idempotency_request_in_progress");

		gate.tryEmitEmpty();
		firstDone.get(5, TimeUnit.SECONDS);
		assertThat(first.getResponse().getStatusCode()).isEqualTo(HttpStatus.CREATED);
	}

	@Test
	void renewalsStopOnceTheResponseIsRecorded() throws Exception {
		this.fixture.handle(post("k-1", "{}"), endpoint()).toFuture().get(5, TimeUnit.SECONDS);

		this.clock.advance(Duration.ofMinutes(5));
		this.scheduler.advanceTimeBy(Duration.ofMinutes(5));

		assertThat(this.fixture.store.completes).hasValue(1);
		assertThat(this.fixture.store.renewals).hasValue(0);
	}

	/** A clock the test moves. */
	private static final class MovableClock extends Clock {

		private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));

		void advance(Duration duration) {
			this.now.updateAndGet((instant) -> instant.plus(duration));
		}

		@Override
		public Instant instant() {
			return this.now.get();
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			throw new UnsupportedOperationException();
		}

	}

}
