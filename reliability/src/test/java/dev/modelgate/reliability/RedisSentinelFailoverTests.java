package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.DuplicateStorm;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.RedisSentinelGroup;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Settings;
import dev.modelgate.reliability.support.Sleep;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 7, a Sentinel failover that loses writes: two gateways on a primary, a replica and three
 * Sentinels. A duplicate storm runs while replication keeps up; then the replica is frozen (SIGSTOP)
 * and its link closed, so that what the primary acknowledges next reaches no replica; more keys are
 * sent; the primary is killed (SIGKILL), the replica resumed and promoted by Sentinel, the old
 * primary brought back as its replica; every key is retried from the moment of the kill until it
 * is served, on both gateways, and the upstream's count of calls per key says which ran twice. Without replica acknowledgements every
 * key that ran while the replica lagged runs again (its record died with the primary); with them,
 * those keys are refused (503) while the replica lags, and no key runs twice.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisSentinelFailoverTests {

	private static final String SCENARIO = "sentinel-failover";

	private static final int KEYS_IN_FLIGHT = 8;

	private static final Duration UPSTREAM_LATENCY = Duration.ofMillis(15);

	private static final Duration ACK_TIMEOUT = Duration.ofMillis(500);

	/** Keys sent while the replica lags; few, since with acknowledgements each waits for the timeout. */
	private static final int LAGGED_KEYS = 40;

	private static final Duration SERVED_TIMEOUT = Duration.ofSeconds(60);

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private final Map<String, Run> runs = new TreeMap<>();

	@Test
	void withoutReplicaAcknowledgementsEveryKeyRunWhileTheReplicaLaggedRunsAgainAfterTheFailover() {
		Run run = failover(0);

		assertThat(run.storm().violations()).isEmpty();
		assertThat(run.ranWhileLagging()).isEqualTo(LAGGED_KEYS);
		assertThat(run.ranTwice(run.stormKeys())).isEmpty();
		assertThat(run.ranTwice(run.laggedKeys())).hasSize(LAGGED_KEYS);
		assertThat(run.unserved()).isEmpty();
	}

	@Test
	void withReplicaAcknowledgementsNoKeyRunsTwice() {
		Run run = failover(1);

		assertThat(run.storm().violations()).isEmpty();
		assertThat(run.ranWhileLagging()).isZero();
		// The one that acquired a key waited for the replica and was refused; its duplicates found
		// the key in progress meanwhile, or acquired it after the release and were refused too.
		assertThat(run.lagAnswers().keySet()).contains("503 idempotency_store_unavailable")
			.isSubsetOf("503 idempotency_store_unavailable", "409 idempotency_request_in_progress");
		assertThat(run.ranTwice(run.allKeys())).isEmpty();
		assertThat(run.unserved()).isEmpty();
		assertThat(run.allKeys()).allSatisfy((tag) -> assertThat(run.calls().get(tag)).isEqualTo(1));
	}

	@AfterAll
	void report() {
		StringBuilder table = new StringBuilder("| replica acknowledgements | storm keys × duplicates (replicated) | "
				+ "keys sent while the replica lagged | their answers then | kill → promoted | keys that ran twice "
				+ "| upstream calls | retries until served |\n|---|---|---|---|---|---|---|---|\n");
		this.runs.forEach((mode, run) -> table.append("| %s | %d × %d | %d | %s | %.1fs | %d (storm %d, lagged %d) | %d | %d |\n"
			.formatted(mode, run.stormKeys().size(), Settings.duplicates(), LAGGED_KEYS, run.lagAnswers(),
					run.promotion().toMillis() / 1000.0, run.ranTwice(run.allKeys()).size(),
					run.ranTwice(run.stormKeys()).size(), run.ranTwice(run.laggedKeys()).size(),
					run.calls().values().stream().mapToInt(Integer::intValue).sum(), run.retries())));
		if (!this.runs.isEmpty()) {
			Report.write(SCENARIO, table.toString());
		}
	}

	private Run failover(int acknowledgements) {
		String mode = (acknowledgements > 0) ? acknowledgements + " (timeout " + ACK_TIMEOUT.toMillis() + "ms)" : "off";
		String scenario = SCENARIO + "-acks-" + acknowledgements;
		List<SampleApp> apps = List.of();
		try (CountingUpstream upstream = CountingUpstream.start();
				RedisSentinelGroup group = RedisSentinelGroup.start(scenario)) {
			upstream.delayAnswers(UPSTREAM_LATENCY);
			List<SampleApp.Builder> builders = new ArrayList<>();
			for (int i = 0; i < 2; i++) {
				builders.add(SampleApp.builder(scenario, "gateway-" + i)
					.store(group)
					.upstream(upstream)
					.property("modelgate.idempotency.redis.replica-acknowledgements", Integer.toString(acknowledgements))
					.property("modelgate.idempotency.redis.replica-acknowledgement-timeout", ACK_TIMEOUT.toMillis() + "ms"));
			}
			apps = SampleApp.startAll(builders);
			this.gateway.warmUp(apps);

			DuplicateStorm.Result storm = new DuplicateStorm(apps, upstream, Math.max(1, Settings.keys() / 5),
					Settings.duplicates(), KEYS_IN_FLIGHT).run();
			group.awaitReplicaInSync(Duration.ofSeconds(10));

			group.replica().freeze();
			group.severReplicationLink();
			List<String> lagged = new ArrayList<>();
			Map<String, Integer> lagAnswers = sendWhileLagging(apps, lagged);
			int ranWhileLagging = (int) lagged.stream().filter((tag) -> upstream.calls(tag) > 0).count();

			List<String> stormKeys = new ArrayList<>(storm.answers().keySet());
			List<String> all = new ArrayList<>(stormKeys);
			all.addAll(lagged);
			group.primary().kill();
			// The retries start at once, so that both gateways take them through the failover.
			List<SampleApp> gateways = apps;
			CompletableFuture<Served> retried = CompletableFuture.supplyAsync(() -> retryUntilServed(gateways, all));
			group.replica().thaw();
			Duration promotion = group.awaitPromotion(Duration.ofSeconds(60));
			group.restartOldPrimaryAsReplica();
			Served served = retried.join();
			Map<String, Integer> calls = new LinkedHashMap<>();
			all.forEach((tag) -> calls.put(tag, upstream.calls(tag)));
			Run run = new Run(storm, stormKeys, lagged, lagAnswers, ranWhileLagging, promotion, calls,
					served.unserved(), served.retries());
			this.runs.put(mode, run);
			return run;
		}
		finally {
			apps.forEach(SampleApp::close);
		}
	}

	/** Every lagged key sent {@code duplicates} times at once over both gateways; answers by status and code. */
	private Map<String, Integer> sendWhileLagging(List<SampleApp> apps, List<String> lagged) {
		String prefix = ChatRequests.newTag("lagged");
		Map<String, Integer> answers = new TreeMap<>();
		for (int k = 0; k < LAGGED_KEYS; k += KEYS_IN_FLIGHT) {
			List<CompletableFuture<Answer>> batch = new ArrayList<>();
			for (int j = k; j < Math.min(LAGGED_KEYS, k + KEYS_IN_FLIGHT); j++) {
				String tag = prefix + "-" + j;
				lagged.add(tag);
				for (int d = 0; d < Settings.duplicates(); d++) {
					batch.add(this.gateway.sendAsync(apps.get((j + d) % apps.size()), tag, ChatRequests.request(tag)));
				}
			}
			batch.stream().map(CompletableFuture::join).forEach((answer) -> answers.merge(describe(answer), 1, Integer::sum));
		}
		return answers;
	}

	/**
	 * Sends each key until a gateway serves it (a 200), over both gateways, while they find the new
	 * primary: 503 and 409 are retried.
	 */
	private Served retryUntilServed(List<SampleApp> apps, List<String> tags) {
		Semaphore inFlight = new Semaphore(KEYS_IN_FLIGHT * 2);
		List<String> unserved = new ArrayList<>();
		int[] retries = new int[1];
		List<CompletableFuture<Void>> all = new ArrayList<>();
		for (int i = 0; i < tags.size(); i++) {
			String tag = tags.get(i);
			int first = i;
			inFlight.acquireUninterruptibly();
			all.add(CompletableFuture.runAsync(() -> {
				try {
					long deadline = System.nanoTime() + SERVED_TIMEOUT.toNanos();
					for (int attempt = first;; attempt++) {
						Answer answer = this.gateway.send(apps.get(attempt % apps.size()), tag, ChatRequests.request(tag));
						if (answer.status() == 200) {
							return;
						}
						synchronized (retries) {
							retries[0]++;
						}
						if (System.nanoTime() > deadline) {
							synchronized (unserved) {
								unserved.add(tag + ": " + answer);
							}
							return;
						}
						Sleep.millis(200);
					}
				}
				finally {
					inFlight.release();
				}
			}));
		}
		CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
		return new Served(unserved, retries[0]);
	}

	private static String describe(Answer answer) {
		if (answer.status() == 200) {
			return answer.isReplay() ? "200 replayed" : "200";
		}
		return answer.status() + ((answer.code() != null) ? " " + answer.code() : "");
	}

	private record Served(List<String> unserved, int retries) {
	}

	/** What one failover saw. */
	private record Run(DuplicateStorm.Result storm, List<String> stormKeys, List<String> laggedKeys,
			Map<String, Integer> lagAnswers, int ranWhileLagging, Duration promotion, Map<String, Integer> calls,
			List<String> unserved, int retries) {

		List<String> allKeys() {
			List<String> all = new ArrayList<>(this.stormKeys);
			all.addAll(this.laggedKeys);
			return all;
		}

		List<String> ranTwice(List<String> tags) {
			return tags.stream().filter((tag) -> this.calls.getOrDefault(tag, 0) > 1).toList();
		}

	}

}
