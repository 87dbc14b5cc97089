package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
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
 * Scenario 2, {@code kill -9} at each window of a keyed request. A gateway with fault injection on
 * holds a request at one point (or the upstream holds its call open), the suite kills it with
 * SIGKILL, and the same request is retried on another gateway that shares the store until it is
 * served. What the retry gets, how many upstream calls happened and (where the credits live in the
 * store's database) how many charges, are checked against the README's guarantees; subclasses say
 * which store.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractProcessKillTests {

	/** Short, so that a retry takes over quickly; heartbeats renew it every third. */
	static final Duration LEASE = Duration.ofSeconds(2);

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private final Map<Window, String> rows = new EnumMap<>(Window.class);

	private final Map<Window, SampleApp> victims = new EnumMap<>(Window.class);

	private CountingUpstream upstream;

	private StoreServer store;

	private SampleApp survivor;

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	/**
	 * Credits charged so far, where the ledger is in the store's database and so survives the kill;
	 * empty where it is in each gateway's memory.
	 */
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.empty();
	}

	/** What the README promises after a kill once the charge committed, for this store. */
	protected abstract String afterChargePromise();

	@BeforeAll
	void startGateways() {
		this.upstream = CountingUpstream.start();
		this.store = startStore(scenario());
		List<SampleApp.Builder> builders = new ArrayList<>();
		builders.add(gateway("survivor"));
		for (Window window : Window.values()) {
			builders.add(gateway("victim-" + window.label).faults());
		}
		List<SampleApp> apps = SampleApp.startAll(builders);
		this.survivor = apps.get(0);
		for (Window window : Window.values()) {
			this.victims.put(window, apps.get(1 + window.ordinal()));
		}
		this.gateway.warmUp(apps);
	}

	private SampleApp.Builder gateway(String name) {
		return SampleApp.builder(scenario(), name)
			.store(this.store)
			.upstream(this.upstream)
			.property("modelgate.idempotency.lease-ttl", LEASE.toMillis() + "ms");
	}

	@AfterAll
	void reportAndStop() {
		if (!this.rows.isEmpty()) {
			Report.write(scenario(), """
					Lease %s (renewed every third). Each row: one request held at the window, its gateway killed
					with SIGKILL, the same request retried every 100 ms on another gateway sharing the %s store.

					| window | the killed gateway's client got | first retry | retries answered 409 | kill → served | served with | upstream calls | charges | README |
					|---|---|---|---|---|---|---|---|---|
					""".formatted(LEASE, this.store.name()) + String.join("\n", this.rows.values()));
		}
		if (this.survivor != null) {
			this.survivor.close();
		}
		this.victims.values().forEach(SampleApp::close);
		if (this.store != null) {
			this.store.close();
		}
		if (this.upstream != null) {
			this.upstream.close();
		}
	}

	@Test
	void killAfterAcquireBeforeUpstreamCallRunsOnceAfterTheLease() {
		Outcome outcome = killAt(Window.BEFORE_UPSTREAM, "409 until the lease runs out, then runs: 1 call");
		assertTakenOverAfterLease(outcome);
		assertThat(outcome.upstreamCalls()).isEqualTo(1);
	}

	@Test
	void killDuringUpstreamCallRunsAgainAfterTheLease() {
		Outcome outcome = killAt(Window.DURING_UPSTREAM, "window 1: 409 until the lease runs out, then runs again: 2 calls");
		assertTakenOverAfterLease(outcome);
		assertThat(outcome.upstreamCalls()).isEqualTo(2);
		assertOneDownstreamKey(outcome);
	}

	@Test
	void killAfterUpstreamCallBeforeChargeRunsAgainAfterTheLease() {
		Outcome outcome = killAt(Window.AFTER_UPSTREAM, "window 1: 409 until the lease runs out, then runs again: 2 calls");
		assertTakenOverAfterLease(outcome);
		assertThat(outcome.upstreamCalls()).isEqualTo(2);
		assertOneDownstreamKey(outcome);
	}

	@Test
	void killAfterChargeBeforeRecord() {
		assertAfterCharge(killAt(Window.AFTER_CHARGE, afterChargePromise()));
	}

	@Test
	void killAfterRecordBeforeResponseReplaysAtOnce() {
		Outcome outcome = killAt(Window.AFTER_RECORD, "recorded before the response is sent: replayed, 1 call");
		assertThat(Gateway.isConnectionLoss(outcome.victimAnswer())).as("the killed gateway sent nothing").isTrue();
		assertThat(outcome.firstRetry().status()).isEqualTo(200);
		assertThat(outcome.firstRetry().isReplay()).isTrue();
		assertThat(outcome.inProgressAnswers()).isZero();
		assertThat(outcome.upstreamCalls()).isEqualTo(1);
		assertThat(outcome.confirmation().sameBody(outcome.served())).isTrue();
		outcome.charges().ifPresent((charges) -> assertThat(charges).isEqualTo(1));
	}

	/** What a retry gets after a kill once the charge committed; the store decides. */
	protected abstract void assertAfterCharge(Outcome outcome);

	/**
	 * The takeover's run called the provider with the key the killed run used (derived from the request's scope,
	 * never the client's key): a provider that deduplicates on it sees one operation.
	 */
	static void assertOneDownstreamKey(Outcome outcome) {
		assertThat(outcome.upstreamKeys()).as("the provider's Idempotency-Key on each call").hasSize(2)
			.doesNotContain("", outcome.tag());
		assertThat(outcome.upstreamKeys()).as("one key for the killed run and the takeover's")
			.containsOnly(outcome.upstreamKeys().get(0));
	}

	/** The holder died and nothing was recorded: 409 until its lease ran out, then the request ran. */
	static void assertTakenOverAfterLease(Outcome outcome) {
		assertThat(Gateway.isConnectionLoss(outcome.victimAnswer())).as("the killed gateway sent nothing").isTrue();
		assertThat(outcome.firstRetry().status()).isEqualTo(409);
		assertThat(outcome.firstRetry().code()).isEqualTo("idempotency_request_in_progress");
		assertThat(outcome.served().status()).isEqualTo(200);
		assertThat(outcome.served().isReplay()).isFalse();
		// At most LEASE was left at the kill (the first retry's 409 shows it was not over yet); the slack
		// is for a busy machine.
		assertThat(outcome.servedAfter()).isLessThanOrEqualTo(LEASE.plusMillis(1500));
		assertThat(outcome.confirmation().isReplay()).isTrue();
		assertThat(outcome.confirmation().sameBody(outcome.served())).isTrue();
	}

	private Outcome killAt(Window window, String promise) {
		SampleApp victim = this.victims.get(window);
		String tag = ChatRequests.newTag(window.label);
		String body = ChatRequests.request(tag);
		OptionalLong chargesBefore = charges(this.store);
		CountingUpstream.Hold hold = (window.faultPoint == null) ? this.upstream.hold(tag) : null;
		CompletableFuture<Answer> victimCall = (window.faultPoint == null)
				? this.gateway.sendAsync(victim, tag, body)
				: this.gateway.sendAsync(victim, tag, body, "X-ModelGate-Fault", window.faultPoint);
		if (hold != null) {
			hold.awaitArrival(Duration.ofSeconds(20));
		}
		else {
			victim.process().awaitLog("request paused at " + window.faultPoint, Duration.ofSeconds(20));
		}
		long killedAt = System.nanoTime();
		victim.kill();
		Answer victimAnswer = victimCall.join();
		if (hold != null) {
			hold.release();
		}
		List<Answer> retries = new ArrayList<>();
		Answer answer;
		do {
			if (!retries.isEmpty()) {
				Sleep.millis(100);
			}
			answer = this.gateway.send(this.survivor, tag, body);
			retries.add(answer);
		}
		while (answer.status() == 409 && System.nanoTime() - killedAt < LEASE.multipliedBy(5).toNanos());
		if (answer.status() < 0) {
			// No answer from the survivor is no verdict on the store: say what the survivor was doing.
			throw new AssertionError("the survivor did not answer: " + answer + "; it is "
					+ (this.survivor.process().isAlive() ? "alive" : "dead") + ", its log ends:\n"
					+ this.survivor.process().logTail(), answer.failure());
		}
		Answer confirmation = this.gateway.send(this.survivor, tag, body);
		OptionalLong chargesAfter = charges(this.store);
		OptionalLong charged = chargesBefore.isPresent()
				? OptionalLong.of(chargesAfter.getAsLong() - chargesBefore.getAsLong()) : OptionalLong.empty();
		Outcome outcome = new Outcome(window, tag, victimAnswer, retries, Duration.ofNanos(answer.answeredAt() - killedAt),
				confirmation, this.upstream.calls(tag), this.upstream.keys(tag), charged);
		this.rows.put(window, outcome.row(promise));
		return outcome;
	}

	/** The windows of the README's guarantees, in the order a request passes them. */
	enum Window {

		BEFORE_UPSTREAM("before-upstream", "before-upstream", "after acquire, before the upstream call"),

		DURING_UPSTREAM("during-upstream", null, "during the upstream call"),

		AFTER_UPSTREAM("after-upstream", "after-upstream", "after the upstream call, before the charge"),

		AFTER_CHARGE("after-charge", "after-charge", "after the charge committed, before the record"),

		AFTER_RECORD("after-record", "after-record", "after the record, before the response");

		private final String label;

		private final String faultPoint;

		private final String description;

		Window(String label, String faultPoint, String description) {
			this.label = label;
			this.faultPoint = faultPoint;
			this.description = description;
		}

	}

	/**
	 * What one kill showed.
	 *
	 * @param window where the request was when its gateway was killed
	 * @param tag the request's tag, also its client's {@code Idempotency-Key}
	 * @param victimAnswer what the killed gateway's client got
	 * @param retries the retries until one was not 409, in order
	 * @param servedAfter from the kill to the first answer that was not 409
	 * @param confirmation one more retry after that
	 * @param upstreamCalls how many times the upstream was called for this request
	 * @param upstreamKeys the {@code Idempotency-Key} the gateway sent the upstream on each of those calls
	 * @param charges credits charges made for it, where they can be counted
	 */
	record Outcome(Window window, String tag, Answer victimAnswer, List<Answer> retries, Duration servedAfter,
			Answer confirmation, int upstreamCalls, List<String> upstreamKeys, OptionalLong charges) {

		Answer firstRetry() {
			return this.retries.get(0);
		}

		Answer served() {
			return this.retries.get(this.retries.size() - 1);
		}

		long inProgressAnswers() {
			return this.retries.stream().filter((answer) -> answer.status() == 409).count();
		}

		String row(String promise) {
			return "| %s | %s | %s | %d | %d ms | %s | %d | %s | %s |".formatted(this.window.description,
					Gateway.isConnectionLoss(this.victimAnswer) ? "connection closed, no response" : this.victimAnswer.toString(),
					brief(firstRetry()), inProgressAnswers(), this.servedAfter.toMillis(), brief(served()),
					this.upstreamCalls, this.charges.isPresent() ? Long.toString(this.charges.getAsLong()) : "in memory",
					promise);
		}

		private static String brief(Answer answer) {
			if (answer.status() == 200) {
				return answer.isReplay() ? "200 replayed" : "200 (ran)";
			}
			return answer.status() + " " + answer.code();
		}

	}

}
