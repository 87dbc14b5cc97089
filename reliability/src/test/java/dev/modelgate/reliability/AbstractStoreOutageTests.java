package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.LoadGenerator;
import dev.modelgate.reliability.support.LoadGenerator.Attempt;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Scopes;
import dev.modelgate.reliability.support.Settings;
import dev.modelgate.reliability.support.Sleep;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 3, the store taken away under load: two gateways share a store of the suite's own, and
 * {@link LoadGenerator} clients keep sending fresh keys (retrying each after a 409 or 503) while the
 * store is stopped for {@code reliability.outage} and started again.
 *
 * <p>Checked: no answer other than 200, 503 {@code idempotency_store_unavailable}, 409
 * {@code idempotency_request_in_progress} or, where the handler's own database is the store's, 503
 * {@code service_unavailable}, ever; only 503 {@code idempotency_store_unavailable} for requests sent
 * and answered while the store is down; every gateway serving keyed requests again within seconds of
 * the store's return; and every extra execution of a key accounted for by a README window: its
 * {@code complete} failed (window 3, logged with its scope), its lease ran out while the store was
 * out of reach (window 2, logged with its scope), or its handler failed and the key was released
 * (window 4, a 503 {@code service_unavailable}). Subclasses say which store and how it is taken away.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractStoreOutageTests {

	/** Short, so that keys left in progress by the outage free up quickly. */
	static final Duration LEASE = Duration.ofSeconds(3);

	private static final int CLIENTS = 16;

	private static final Duration WARM = Duration.ofSeconds(3);


	private static final Pattern FAILED_COMPLETE = Pattern
		.compile("Could not record the outcome for idempotency scope ([0-9a-f]{64})");

	private static final Pattern FAILED_RELEASE = Pattern
		.compile("Could not release idempotency scope ([0-9a-f]{64})");

	/** The sample app's WARN when the JDBC store refuses to mark a transaction of a lapsed lease. */
	private static final Pattern LEASE_LOST = Pattern.compile("lease for scope ([0-9a-f]{64}) was lost");

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private CountingUpstream upstream;

	private StoreServer store;

	private List<SampleApp> apps = List.of();

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	/** Time every gateway must be serving again by, once the store answers again. */
	protected abstract Duration recoveryLimit();

	protected StoreServer store() {
		return this.store;
	}

	/**
	 * Credits charged so far, where the ledger is in the store's database (so every charge is one
	 * committed transaction that also marked its key applied); empty where it is in memory.
	 */
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.empty();
	}

	@BeforeAll
	void startGateways() {
		this.upstream = CountingUpstream.start();
		this.upstream.delayAnswers(Duration.ofMillis(20));
		this.store = startStore(scenario());
		this.apps = SampleApp.startAll(List.of(gateway("gateway-0"), gateway("gateway-1")));
		this.gateway.warmUp(this.apps);
	}

	private SampleApp.Builder gateway(String name) {
		return SampleApp.builder(scenario(), name)
			.store(this.store)
			.upstream(this.upstream)
			.property("modelgate.idempotency.lease-ttl", LEASE.toMillis() + "ms");
	}

	@AfterAll
	void stopEverything() {
		this.apps.forEach(SampleApp::close);
		if (this.store != null) {
			this.store.close();
		}
		if (this.upstream != null) {
			this.upstream.close();
		}
	}

	/**
	 * Runs load, takes the store away with {@code takeDown}, waits {@code reliability.outage}, brings
	 * it back with {@code bringBack} (which returns once the store answers again), keeps the load on
	 * until every gateway served a keyed request, then checks and reports.
	 * @param outage names the kind of outage in the report
	 * @param slowestRefusal the longest a request sent during the outage may wait for its 503
	 */
	protected void runOutage(String outage, Duration slowestRefusal, Runnable takeDown, Runnable bringBack) {
		String prefix = ChatRequests.newTag(outage.replaceAll("\\W+", "-"));
		Duration outageLength = Settings.outage();
		long down;
		long downDone;
		long upStart;
		long up;
		List<Attempt> attempts;
		OptionalLong chargesBefore = charges(this.store);
		try (LoadGenerator load = new LoadGenerator(this.apps, CLIENTS, prefix)) {
			Sleep.of(WARM);
			down = System.nanoTime();
			takeDown.run();
			downDone = System.nanoTime();
			Sleep.of(outageLength);
			upStart = System.nanoTime();
			bringBack.run();
			up = System.nanoTime();
			long deadline = up + recoveryLimit().toNanos();
			while (!allReachTheStoreSince(load.attempts(), up) && System.nanoTime() < deadline) {
				Sleep.millis(100);
			}
			Sleep.of(WARM);
			load.close();
			attempts = load.attempts();
		}
		Timeline timeline = new Timeline(down, downDone, upStart, up);
		Set<String> tags = attempts.stream().map(Attempt::tag).collect(Collectors.toCollection(LinkedHashSet::new));
		Map<String, Answer> finals = new LinkedHashMap<>();
		for (String tag : tags) {
			finals.put(tag, settle(tag));
		}
		Analysis analysis = new Analysis(attempts, timeline, finals, this.upstream, logged(FAILED_COMPLETE),
				logged(LEASE_LOST), logged(FAILED_RELEASE));
		OptionalLong charged = chargesBefore.isPresent()
				? OptionalLong.of(charges(this.store).getAsLong() - chargesBefore.getAsLong()) : OptionalLong.empty();

		Report.write(scenario() + "-" + outage.replaceAll("\\W+", "-"), analysis.report(outage, outageLength, this.apps)
				+ (charged.isPresent() ? "\nCredits charged: %d times for %d operations.\n".formatted(charged.getAsLong(),
						finals.size()) : ""));

		assertThat(analysis.unexpected()).as("answers other than 200, 503 and 409 in progress").isEmpty();
		assertThat(analysis.duringOutage(Predicate.not(AbstractStoreOutageTests::isStoreUnavailable)))
			.as("answers other than 503 to requests sent while the store was down")
			.isEmpty();
		assertThat(analysis.duringOutage((answer) -> true)).as("requests sent while the store was down")
			.isNotEmpty()
			.allSatisfy((answer) -> assertThat(Duration.ofMillis(answer.millis())).isLessThanOrEqualTo(slowestRefusal));
		for (SampleApp app : this.apps) {
			assertThat(analysis.recovery(app)).as("time until " + app + " served again after the store was back")
				.isNotNull()
				.isLessThanOrEqualTo(recoveryLimit());
		}
		assertThat(analysis.unsettled()).as("operations that never got their answer afterwards").isEmpty();
		assertThat(analysis.unexplainedDuplicates()).as("extra executions that no README window accounts for").isEmpty();
		charged.ifPresent((count) -> assertThat(count).as("charges, one per operation whatever ran twice upstream")
			.isEqualTo(finals.size()));
	}

	/**
	 * One more request for a key after the load, retried until it is settled (a 409 lasts a lease): a
	 * 200, or a 410 when its operation was applied but its response never stored.
	 */
	private Answer settle(String tag) {
		SampleApp app = this.apps.get(0);
		long deadline = System.nanoTime() + LEASE.multipliedBy(3).toNanos();
		Answer answer;
		do {
			answer = this.gateway.send(app, tag, ChatRequests.request(tag));
			if (answer.status() != 200 && answer.status() != 410) {
				Sleep.millis(200);
			}
		}
		while (answer.status() != 200 && answer.status() != 410 && System.nanoTime() < deadline);
		return answer;
	}

	private boolean allReachTheStoreSince(List<Attempt> attempts, long since) {
		return this.apps.stream()
			.allMatch((app) -> attempts.stream()
				.anyMatch((attempt) -> attempt.app() == app && attempt.answer().sentAt() >= since
						&& reachedTheStore(attempt.answer())));
	}

	/**
	 * Whether the gateway got an answer from the store for this request: anything but its 503. A 409
	 * counts: after a freeze, keys whose {@code begin} the store ran late stay in progress until their
	 * lease runs out (README window 7), however well the gateway reaches the store.
	 */
	static boolean reachedTheStore(Answer answer) {
		return answer.status() > 0 && !isStoreUnavailable(answer);
	}

	/** How often the gateways logged a line matching {@code pattern}, per scope hash. */
	private Map<String, Integer> logged(Pattern pattern) {
		Map<String, Integer> scopes = new LinkedHashMap<>();
		for (SampleApp app : this.apps) {
			Matcher matcher = pattern.matcher(app.process().log());
			while (matcher.find()) {
				scopes.merge(matcher.group(1), 1, Integer::sum);
			}
		}
		return scopes;
	}

	static boolean isStoreUnavailable(Answer answer) {
		return answer.status() == 503 && "idempotency_store_unavailable".equals(answer.code())
				&& answer.header("Retry-After") != null;
	}

	static boolean isInProgress(Answer answer) {
		return answer.status() == 409 && "idempotency_request_in_progress".equals(answer.code());
	}

	/** The handler ran and its own database work failed (the sample app's 503); the key was released. */
	static boolean isHandlerFailure(Answer answer) {
		return answer.status() == 503 && "service_unavailable".equals(answer.code())
				&& answer.header("Retry-After") != null;
	}

	static boolean isResultUnavailable(Answer answer) {
		return answer.status() == 410 && "idempotency_result_unavailable".equals(answer.code());
	}

	private static boolean isExpected(Answer answer) {
		return answer.status() == 200 || isStoreUnavailable(answer) || isInProgress(answer) || isHandlerFailure(answer);
	}

	/**
	 * When the store went away and came back.
	 *
	 * @param down just before it was taken down
	 * @param downDone once taking it down returned (it no longer answers)
	 * @param upStart just before it was brought back (from then on it may answer)
	 * @param up once it answered again
	 */
	record Timeline(long down, long downDone, long upStart, long up) {

		String phase(Answer answer) {
			if (answer.answeredAt() < this.down) {
				return "before";
			}
			if (answer.sentAt() > this.downDone && answer.answeredAt() < this.upStart) {
				return "during";
			}
			if (answer.sentAt() >= this.up) {
				return "after";
			}
			return "across";
		}

	}

	/** What the attempts, the final answers, the upstream and the gateways' logs say together. */
	record Analysis(List<Attempt> attempts, Timeline timeline, Map<String, Answer> finals, CountingUpstream upstream,
			Map<String, Integer> failedCompletes, Map<String, Integer> leasesLost, Map<String, Integer> failedReleases) {

		/**
		 * Answers no outage explains. A 410 is explained only for an operation whose handler failed or
		 * whose record could not be written after its transaction committed (the JDBC store marks it
		 * applied, so retries are told it ran instead of running it again).
		 */
		List<Answer> unexpected() {
			return this.attempts.stream()
				.filter((attempt) -> !isExpected(attempt.answer())
						&& !(isResultUnavailable(attempt.answer()) && outcomeNotStored(attempt.tag())))
				.map(Attempt::answer)
				.toList();
		}

		/** Operations whose last answer is neither a 200 nor an explained 410. */
		List<String> unsettled() {
			return this.finals.entrySet()
				.stream()
				.filter((entry) -> entry.getValue().status() != 200
						&& !(isResultUnavailable(entry.getValue()) && outcomeNotStored(entry.getKey())))
				.map((entry) -> entry.getKey() + ": " + entry.getValue())
				.toList();
		}

		private boolean outcomeNotStored(String tag) {
			return handlerFailures(tag) > 0 || failedCompletes(tag) > 0
					|| this.failedReleases.getOrDefault(Scopes.of(tag), 0) > 0;
		}

		List<Answer> duringOutage(Predicate<Answer> filter) {
			return this.attempts.stream()
				.map(Attempt::answer)
				.filter((answer) -> "during".equals(this.timeline.phase(answer)))
				.filter(filter)
				.toList();
		}

		/**
		 * From the store answering again to the first answer from the store (not a 503 refusal) to a
		 * keyed request sent to {@code app} after that.
		 */
		Duration recovery(SampleApp app) {
			return this.attempts.stream()
				.filter((attempt) -> attempt.app() == app && attempt.answer().sentAt() >= this.timeline.up()
						&& reachedTheStore(attempt.answer()))
				.map((attempt) -> Duration.ofNanos(attempt.answer().answeredAt() - this.timeline.up()))
				.min(Duration::compareTo)
				.orElse(null);
		}

		/**
		 * Keys whose upstream calls exceed one plus the executions that the README's windows allow
		 * to run again: failed completes (3), leases lost (2), handler failures (4).
		 */
		List<String> unexplainedDuplicates() {
			List<String> unexplained = new ArrayList<>();
			this.finals.keySet().forEach((tag) -> {
				int calls = this.upstream.calls(tag);
				if (calls > 1 + failedCompletes(tag) + leasesLost(tag) + handlerFailures(tag)) {
					unexplained.add(tag + ": " + calls + " upstream calls; failed completes " + failedCompletes(tag)
							+ ", leases lost " + leasesLost(tag) + ", handler failures " + handlerFailures(tag));
				}
			});
			return unexplained;
		}

		private int failedCompletes(String tag) {
			return this.failedCompletes.getOrDefault(Scopes.of(tag), 0);
		}

		private int leasesLost(String tag) {
			return this.leasesLost.getOrDefault(Scopes.of(tag), 0);
		}

		private int handlerFailures(String tag) {
			return (int) this.attempts.stream()
				.filter((attempt) -> attempt.tag().equals(tag) && isHandlerFailure(attempt.answer()))
				.count();
		}

		String report(String outage, Duration length, List<SampleApp> apps) {
			StringBuilder report = new StringBuilder();
			report.append("""
					%d clients on %d gateways (lease %s), fresh key per operation, retried after 409/503 every 100 ms.
					Outage: %s for %s.

					| phase | requests | 200 | 503 `idempotency_store_unavailable` | 409 `idempotency_request_in_progress` | 503 `service_unavailable` (handler's database failed) | 410 `idempotency_result_unavailable` | anything else | slowest answer |
					|---|---|---|---|---|---|---|---|---|
					""".formatted(CLIENTS, apps.size(), LEASE, outage, length));
			for (String phase : List.of("before", "during", "across", "after")) {
				List<Answer> answers = this.attempts.stream()
					.map(Attempt::answer)
					.filter((answer) -> phase.equals(this.timeline.phase(answer)))
					.toList();
				report.append("| %s | %d | %d | %d | %d | %d | %d | %d | %d ms |\n".formatted(describe(phase), answers.size(),
						answers.stream().filter((a) -> a.status() == 200).count(),
						answers.stream().filter(AbstractStoreOutageTests::isStoreUnavailable).count(),
						answers.stream().filter(AbstractStoreOutageTests::isInProgress).count(),
						answers.stream().filter(AbstractStoreOutageTests::isHandlerFailure).count(),
						answers.stream().filter(AbstractStoreOutageTests::isResultUnavailable).count(),
						answers.stream().filter((a) -> !isExpected(a) && !isResultUnavailable(a)).count(),
						answers.stream().mapToLong(Answer::millis).max().orElse(0)));
			}
			report.append("\nGateways reaching the store again (first answer that is not a 503 refusal), after it answered again: ");
			report.append(apps.stream()
				.map((app) -> app.name() + " " + millis(recovery(app)))
				.collect(Collectors.joining(", ")));
			report.append(".\n\nOperations: %d, each settled afterwards (a 200, or the 410 below); upstream calls: %d.\n\n".formatted(
					this.finals.size(), this.finals.keySet().stream().mapToInt(this.upstream::calls).sum()));
			report.append("| operations that | count | of which ran more than once |\n|---|---|---|\n");
			report.append(row("had their `complete` fail (window 3, logged with the scope)", (tag) -> failedCompletes(tag) > 0));
			report.append(row("lost their lease while the store was out of reach (window 2, logged)", (tag) -> leasesLost(tag) > 0));
			report.append(row("got a 503 `service_unavailable` from the handler (window 4, released)", (tag) -> handlerFailures(tag) > 0));
			report.append(row("none of these", (tag) -> failedCompletes(tag) + leasesLost(tag) + handlerFailures(tag) == 0));
			long applied = this.finals.entrySet().stream().filter((entry) -> isResultUnavailable(entry.getValue())).count();
			report.append("""

					An operation whose `complete` failed yet ran once had its record written after all: the write reached the store before it went away, or was applied when it came back. Operations settled with 410 `idempotency_result_unavailable` (their transaction committed, marking the key applied, before the database went away; not run again): %d.
					""".formatted(applied));
			return report.toString();
		}

		private String row(String what, Predicate<String> filter) {
			List<String> tags = this.finals.keySet().stream().filter(filter).toList();
			return "| %s | %d | %d |\n".formatted(what, tags.size(),
					tags.stream().filter((tag) -> this.upstream.calls(tag) > 1).count());
		}

		private static String describe(String phase) {
			return switch (phase) {
				case "before" -> "before the outage";
				case "during" -> "sent and answered while the store was down";
				case "across" -> "in flight when the store went down or came back";
				default -> "sent after the store was back";
			};
		}

		private static String millis(Duration duration) {
			return (duration != null) ? duration.toMillis() + " ms" : "never";
		}

	}

}
