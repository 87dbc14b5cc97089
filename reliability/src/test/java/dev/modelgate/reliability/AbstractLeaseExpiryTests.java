package dev.modelgate.reliability;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Sleep;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 6, a handler that outlives its lease without heartbeats. The holder's whole JVM is
 * frozen with SIGSTOP while its request is inside the upstream call (every thread stops, the
 * heartbeat too, as in a long stop-the-world GC pause) for longer than the lease; a second gateway
 * takes the key over and completes it; then the first is resumed with SIGCONT. Its write must be
 * refused and the new holder's result must stand. Subclasses say which store, and what the paused
 * holder's own client gets.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractLeaseExpiryTests {

	private static final Duration LEASE = Duration.ofSeconds(2);

	private static final Duration PAUSE = LEASE.plusSeconds(1);

	private final Gateway gateway = new Gateway(Duration.ofSeconds(60));

	private CountingUpstream upstream;

	private StoreServer store;

	private SampleApp stale;

	private SampleApp fresh;

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	/**
	 * What the paused holder's client got once it resumed, and what its gateway logged, given the
	 * new holder's answer.
	 */
	protected abstract void assertStaleHolder(Answer staleHolder, Answer newHolder, SampleApp staleGateway);

	/** How the paused holder's write was refused, for the report. */
	protected abstract String refusal();

	/** The log line that shows the refusal. */
	protected abstract String refusalLogLine();

	/** Charges made so far where they can be counted (the ledger in the store's database). */
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.empty();
	}

	@BeforeAll
	void startGateways() {
		this.upstream = CountingUpstream.start();
		this.store = startStore(scenario());
		List<SampleApp> apps = SampleApp.startAll(List.of(gateway("paused-holder"), gateway("new-holder")));
		this.stale = apps.get(0);
		this.fresh = apps.get(1);
		this.gateway.warmUp(apps);
	}

	private SampleApp.Builder gateway(String name) {
		return SampleApp.builder(scenario(), name)
			.store(this.store)
			.upstream(this.upstream)
			.property("modelgate.idempotency.lease-ttl", LEASE.toMillis() + "ms");
	}

	@AfterAll
	void stopEverything() {
		if (this.stale != null) {
			this.stale.close();
		}
		if (this.fresh != null) {
			this.fresh.close();
		}
		if (this.store != null) {
			this.store.close();
		}
		if (this.upstream != null) {
			this.upstream.close();
		}
	}

	@Test
	void staleHolderCannotOverwriteTheNewHoldersResult() {
		String tag = ChatRequests.newTag("gc-pause");
		String body = ChatRequests.request(tag);
		OptionalLong chargesBefore = charges(this.store);
		CountingUpstream.Hold hold = this.upstream.hold(tag);
		CompletableFuture<Answer> staleCall = this.gateway.sendAsync(this.stale, tag, body);
		hold.awaitArrival(Duration.ofSeconds(20));

		this.stale.process().suspend();
		Answer newHolder;
		try {
			Sleep.of(PAUSE);
			newHolder = this.gateway.send(this.fresh, tag, body);
			hold.release();
		}
		finally {
			this.stale.process().resume();
		}
		Answer staleHolder = staleCall.join();
		this.stale.process().awaitLog(refusalLogLine(), Duration.ofSeconds(20));
		Answer retryOnStale = this.gateway.send(this.stale, tag, body);
		Answer retryOnFresh = this.gateway.send(this.fresh, tag, body);
		OptionalLong charged = chargesBefore.isPresent()
				? OptionalLong.of(charges(this.store).getAsLong() - chargesBefore.getAsLong()) : OptionalLong.empty();

		Report.write(scenario(), """
				Lease %s. The holder's JVM frozen (SIGSTOP) for %s inside its upstream call, then resumed (SIGCONT).

				| | status | body from upstream call | replayed |
				|---|---|---|---|
				| new holder (took the key over during the pause) | %d | #%s | %s |
				| paused holder, after resuming (%s) | %s | #%s | %s |
				| retry on the paused holder's gateway | %d | #%s | %s |
				| retry on the new holder's gateway | %d | #%s | %s |

				Upstream calls for the key: %d; charges: %s (README window 2: the stale holder's upstream call happened; its record did not).
				""".formatted(LEASE, PAUSE, newHolder.status(), callNumber(newHolder), newHolder.isReplay(),
				refusal(), staleHolder.status() + ((staleHolder.code() != null) ? " " + staleHolder.code() : ""),
				callNumber(staleHolder), staleHolder.isReplay(),
				retryOnStale.status(), callNumber(retryOnStale), retryOnStale.isReplay(), retryOnFresh.status(),
				callNumber(retryOnFresh), retryOnFresh.isReplay(), this.upstream.calls(tag),
				charged.isPresent() ? Long.toString(charged.getAsLong()) : "in memory"));

		assertThat(newHolder.status()).isEqualTo(200);
		assertThat(newHolder.isReplay()).isFalse();
		assertStaleHolder(staleHolder, newHolder, this.stale);
		charged.ifPresent((count) -> assertThat(count).as("only the new holder's charge stands").isEqualTo(1));
		for (Answer retry : List.of(retryOnStale, retryOnFresh)) {
			assertThat(retry.isReplay()).isTrue();
			assertThat(retry.sameBody(newHolder)).as("the new holder's result stands").isTrue();
		}
		assertThat(this.upstream.calls(tag)).isEqualTo(2);
	}

	/** Which upstream call produced an answer ({@code ... from call N}). */
	private static String callNumber(Answer answer) {
		String text = answer.text();
		int at = text.indexOf("from call ");
		return (at < 0) ? "?" : text.substring(at + 10).replaceAll("\\D.*$", "");
	}

}
