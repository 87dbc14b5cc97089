package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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
 * <p>Checked: no answer other than 200, 503 {@code idempotency_store_unavailable} or 409
 * {@code idempotency_request_in_progress}, ever; only 503 for requests sent while the store is down;
 * every gateway serving keyed requests again within seconds of the restart; and every key that ran
 * more than once ran again because its {@code complete} failed while the store went away, which the
 * gateway logs (README window 3). Subclasses say which store and how it is taken away.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractStoreOutageTests {

	/** Short, so that keys left in progress by the outage free up quickly. */
	static final Duration LEASE = Duration.ofSeconds(3);

	private static final int CLIENTS = 16;

	private static final Duration WARM = Duration.ofSeconds(3);

	/** Time every gateway must be serving again by, after the store is back. */
	private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);

	private static final Pattern FAILED_COMPLETE = Pattern
		.compile("Could not record the response for idempotency scope ([0-9a-f]{64})");

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private CountingUpstream upstream;

	private StoreServer store;

	private List<SampleApp> apps = List.of();

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	protected StoreServer store() {
		return this.store;
	}

	@BeforeAll
	void startGateways() {
		this.upstream = CountingUpstream.start();
		this.upstream.delayAnswers(Duration.ofMillis(20));
		this.store = startStore(scenario());
		this.apps = SampleApp.startAll(List.of(gateway("gateway-0"), gateway("gateway-1")));
		// A gateway's first request opens its store connection and loads classes; not what is measured.
		this.apps.forEach((app) -> assertThat(settle(app, ChatRequests.newTag("warm-up")).status()).isEqualTo(200));
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
		long up;
		List<Attempt> attempts;
		try (LoadGenerator load = new LoadGenerator(this.apps, CLIENTS, prefix)) {
			Sleep.of(WARM);
			down = System.nanoTime();
			takeDown.run();
			downDone = System.nanoTime();
			Sleep.of(outageLength);
			bringBack.run();
			up = System.nanoTime();
			long deadline = up + RECOVERY_LIMIT.toNanos();
			while (!allServedSince(load.attempts(), up) && System.nanoTime() < deadline) {
				Sleep.millis(100);
			}
			Sleep.of(WARM);
			load.close();
			attempts = load.attempts();
		}
		Timeline timeline = new Timeline(down, downDone, up);
		Set<String> tags = attempts.stream().map(Attempt::tag).collect(Collectors.toCollection(LinkedHashSet::new));
		Map<String, Answer> finals = new LinkedHashMap<>();
		for (String tag : tags) {
			finals.put(tag, settle(tag));
		}
		Map<String, Integer> failedCompletes = failedCompletesByScope();
		Analysis analysis = new Analysis(attempts, timeline, finals, this.upstream, failedCompletes);

		Report.write(scenario() + "-" + outage.replaceAll("\\W+", "-"), analysis.report(outage, outageLength, this.apps));

		assertThat(analysis.unexpected()).as("answers other than 200, 503 store unavailable and 409 in progress")
			.isEmpty();
		assertThat(analysis.duringOutage(Predicate.not(AbstractStoreOutageTests::isStoreUnavailable)))
			.as("answers other than 503 to requests sent while the store was down")
			.isEmpty();
		assertThat(analysis.duringOutage((answer) -> true)).as("requests sent while the store was down")
			.isNotEmpty()
			.allSatisfy((answer) -> assertThat(Duration.ofMillis(answer.millis())).isLessThanOrEqualTo(slowestRefusal));
		for (SampleApp app : this.apps) {
			assertThat(analysis.recovery(app)).as("time until " + app + " served again after the store was back")
				.isNotNull()
				.isLessThanOrEqualTo(RECOVERY_LIMIT);
		}
		assertThat(finals.values()).allSatisfy((answer) -> assertThat(answer.status()).isEqualTo(200));
		assertThat(analysis.unexplainedDuplicates())
			.as("keys that ran more often than their failed completes allow (README window 3)")
			.isEmpty();
	}

	/** One more request for a key after the load, retried until it is served (a 409 lasts a lease). */
	private Answer settle(String tag) {
		return settle(this.apps.get(0), tag);
	}

	private Answer settle(SampleApp app, String tag) {
		long deadline = System.nanoTime() + LEASE.multipliedBy(3).toNanos();
		Answer answer;
		do {
			answer = this.gateway.send(app, tag, ChatRequests.request(tag));
			if (answer.status() != 200) {
				Sleep.millis(200);
			}
		}
		while (answer.status() != 200 && System.nanoTime() < deadline);
		return answer;
	}

	private boolean allServedSince(List<Attempt> attempts, long since) {
		return this.apps.stream()
			.allMatch((app) -> attempts.stream()
				.anyMatch((attempt) -> attempt.app() == app && attempt.answer().sentAt() >= since
						&& attempt.answer().status() == 200));
	}

	/** The scopes whose record could not be written, as the gateways logged them (with a count). */
	private Map<String, Integer> failedCompletesByScope() {
		Map<String, Integer> scopes = new LinkedHashMap<>();
		for (SampleApp app : this.apps) {
			Matcher matcher = FAILED_COMPLETE.matcher(app.process().log());
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

	/**
	 * When the store went away and came back.
	 *
	 * @param down just before it was taken down
	 * @param downDone once taking it down returned (it no longer answers)
	 * @param up once it answered again
	 */
	record Timeline(long down, long downDone, long up) {

		String phase(Answer answer) {
			if (answer.answeredAt() < this.down) {
				return "before";
			}
			if (answer.sentAt() > this.downDone && answer.answeredAt() < this.up) {
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
			Map<String, Integer> failedCompletes) {

		List<Answer> unexpected() {
			return this.attempts.stream()
				.map(Attempt::answer)
				.filter((answer) -> answer.status() != 200 && !isStoreUnavailable(answer) && !isInProgress(answer))
				.toList();
		}

		List<Answer> duringOutage(Predicate<Answer> filter) {
			return this.attempts.stream()
				.map(Attempt::answer)
				.filter((answer) -> "during".equals(this.timeline.phase(answer)))
				.filter(filter)
				.toList();
		}

		/** From the store answering again to the first 200 of a keyed request sent to {@code app} after that. */
		Duration recovery(SampleApp app) {
			return this.attempts.stream()
				.filter((attempt) -> attempt.app() == app && attempt.answer().sentAt() >= this.timeline.up()
						&& attempt.answer().status() == 200)
				.map((attempt) -> Duration.ofNanos(attempt.answer().answeredAt() - this.timeline.up()))
				.min(Duration::compareTo)
				.orElse(null);
		}

		/** Keys whose upstream calls exceed one plus the failed completes logged for their scope. */
		List<String> unexplainedDuplicates() {
			List<String> unexplained = new ArrayList<>();
			this.finals.keySet().forEach((tag) -> {
				int calls = this.upstream.calls(tag);
				int allowed = 1 + this.failedCompletes.getOrDefault(Scopes.of(tag), 0);
				if (calls > allowed) {
					unexplained.add(tag + ": " + calls + " upstream calls, " + (allowed - 1) + " failed completes logged");
				}
			});
			return unexplained;
		}

		String report(String outage, Duration length, List<SampleApp> apps) {
			StringBuilder report = new StringBuilder();
			report.append("""
					%d clients on %d gateways (lease %s), fresh key per operation, retried after 409/503 every 100 ms.
					Outage: %s for %s.

					| phase | requests | 200 | 503 `idempotency_store_unavailable` | 409 `idempotency_request_in_progress` | anything else | slowest answer |
					|---|---|---|---|---|---|---|
					""".formatted(CLIENTS, apps.size(), LEASE, outage, length));
			for (String phase : List.of("before", "during", "across", "after")) {
				List<Answer> answers = this.attempts.stream()
					.map(Attempt::answer)
					.filter((answer) -> phase.equals(this.timeline.phase(answer)))
					.toList();
				report.append("| %s | %d | %d | %d | %d | %d | %d ms |\n".formatted(describe(phase), answers.size(),
						answers.stream().filter((a) -> a.status() == 200).count(),
						answers.stream().filter(AbstractStoreOutageTests::isStoreUnavailable).count(),
						answers.stream().filter(AbstractStoreOutageTests::isInProgress).count(),
						answers.stream()
							.filter((a) -> a.status() != 200 && !isStoreUnavailable(a) && !isInProgress(a))
							.count(),
						answers.stream().mapToLong(Answer::millis).max().orElse(0)));
			}
			report.append("\nBack in service after the store answered again: ");
			report.append(apps.stream()
				.map((app) -> app.name() + " " + millis(recovery(app)))
				.collect(Collectors.joining(", ")));
			List<String> failed = this.finals.keySet()
				.stream()
				.filter((tag) -> this.failedCompletes.containsKey(Scopes.of(tag)))
				.toList();
			long ranAgain = failed.stream().filter((tag) -> this.upstream.calls(tag) > 1).count();
			long twice = this.finals.keySet().stream().filter((tag) -> this.upstream.calls(tag) > 1).count();
			report.append(".\n\nOperations: %d, each settled with a 200 afterwards; upstream calls: %d. ".formatted(
					this.finals.size(), this.finals.keySet().stream().mapToInt(this.upstream::calls).sum()));
			report.append("Operations that ran twice: %d, every one of them among the %d whose `complete` failed when the store went away (logged with their scope; README window 3). The other %d of those got their record written after all (the write reached the store before it died, or was applied when it thawed), so their retry was a replay.\n"
				.formatted(twice, failed.size(), failed.size() - ranAgain));
			return report.toString();
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
