package dev.modelgate.reliability.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends every key's request {@code duplicates} times at once, spread over the gateways, many keys
 * in flight together; then checks every answer and the upstream's count of calls per key, and
 * retries each key once more to see its recorded answer.
 *
 * <p>Per key, every answer must be either the same bytes (the one execution's response, sent once
 * as the original and otherwise replayed) or a 409 {@code idempotency_request_in_progress}; exactly
 * one answer is the original; and the upstream saw exactly one call.
 */
public final class DuplicateStorm {

	private static final String IN_PROGRESS = "idempotency_request_in_progress";

	private static final String STORE_UNAVAILABLE = "idempotency_store_unavailable";

	/**
	 * How often one duplicate is sent again after a 503 {@code idempotency_store_unavailable}, as the
	 * OpenAI SDKs do (twice by default, we allow a little more). On a loaded two-core machine a
	 * gateway with the sample's 250 ms connection checkout can answer that while its pool is busy;
	 * the 503 is the promised safe answer (nothing ran), and what the storm checks is that the key's
	 * retries still run it once.
	 */
	private static final int STORE_UNAVAILABLE_RETRIES = 3;

	private static final Duration RETRY_PAUSE = Duration.ofMillis(100);

	private final List<SampleApp> apps;

	private final CountingUpstream upstream;

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private final int keys;

	private final int duplicates;

	private final int keysInFlight;

	public DuplicateStorm(List<SampleApp> apps, CountingUpstream upstream, int keys, int duplicates, int keysInFlight) {
		this.apps = apps;
		this.upstream = upstream;
		this.keys = keys;
		this.duplicates = duplicates;
		this.keysInFlight = keysInFlight;
	}

	public Result run() {
		String run = ChatRequests.newTag("storm");
		Map<String, List<Answer>> answers = new ConcurrentHashMap<>();
		AtomicInteger unavailable = new AtomicInteger();
		Semaphore inFlight = new Semaphore(this.keysInFlight);
		List<CompletableFuture<Void>> all = new ArrayList<>();
		int callsBefore = this.upstream.calls();
		long start = System.nanoTime();
		for (int k = 0; k < this.keys; k++) {
			String tag = run + "-" + k;
			inFlight.acquireUninterruptibly();
			List<CompletableFuture<Answer>> batch = new ArrayList<>();
			for (int d = 0; d < this.duplicates; d++) {
				SampleApp app = this.apps.get((k + d) % this.apps.size());
				batch.add(sendRetryingUnavailable(app, tag, STORE_UNAVAILABLE_RETRIES, unavailable));
			}
			all.add(CompletableFuture.allOf(batch.toArray(CompletableFuture[]::new)).whenComplete((ignored, ex) -> {
				answers.put(tag, batch.stream().map(CompletableFuture::join).toList());
				inFlight.release();
			}));
		}
		CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
		Duration storm = Duration.ofNanos(System.nanoTime() - start);
		Map<String, Answer> retries = retryEveryKeyOnce(answers.keySet(), unavailable);
		return new Result(this.keys, this.duplicates, this.apps.size(), answers, retries,
				this.upstream.calls() - callsBefore, this.upstream.callsByTag(), storm, unavailable.get());
	}

	private CompletableFuture<Answer> sendRetryingUnavailable(SampleApp app, String tag, int retriesLeft,
			AtomicInteger unavailable) {
		return this.gateway.sendAsync(app, tag, ChatRequests.request(tag)).thenCompose((answer) -> {
			if (answer.status() != 503 || !STORE_UNAVAILABLE.equals(answer.code()) || retriesLeft == 0) {
				return CompletableFuture.completedFuture(answer);
			}
			unavailable.incrementAndGet();
			return CompletableFuture.supplyAsync(() -> null,
					CompletableFuture.delayedExecutor(RETRY_PAUSE.toMillis(), TimeUnit.MILLISECONDS))
				.thenCompose((ignored) -> sendRetryingUnavailable(app, tag, retriesLeft - 1, unavailable));
		});
	}

	/**
	 * One more request per key, sent as a client would after the storm, so a 503
	 * {@code idempotency_store_unavailable} is sent again as during the storm: it says nothing ran,
	 * and what is checked is that the key's answer, once the store answers, is the recorded one.
	 */
	private Map<String, Answer> retryEveryKeyOnce(Iterable<String> tags, AtomicInteger unavailable) {
		Map<String, Answer> retries = new ConcurrentHashMap<>();
		Semaphore inFlight = new Semaphore(this.keysInFlight * this.duplicates);
		List<CompletableFuture<Void>> all = new ArrayList<>();
		AtomicInteger next = new AtomicInteger();
		for (String tag : tags) {
			inFlight.acquireUninterruptibly();
			SampleApp app = this.apps.get(next.getAndIncrement() % this.apps.size());
			all.add(sendRetryingUnavailable(app, tag, STORE_UNAVAILABLE_RETRIES, unavailable).thenAccept((answer) -> {
				retries.put(tag, answer);
				inFlight.release();
			}));
		}
		CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
		return retries;
	}

	/**
	 * What a storm saw.
	 *
	 * @param keys how many keys
	 * @param duplicates concurrent requests per key
	 * @param instances gateways the requests were spread over
	 * @param answers every answer, per key (the key is also the upstream tag)
	 * @param retries the answer to one more request per key after the storm
	 * @param upstreamCalls calls the upstream received during the run
	 * @param callsByTag upstream calls per tag, over the upstream's whole life
	 * @param elapsed how long the storm itself took (retries not counted)
	 * @param unavailable 503 {@code idempotency_store_unavailable} answers that were sent again
	 */
	public record Result(int keys, int duplicates, int instances, Map<String, List<Answer>> answers,
			Map<String, Answer> retries, int upstreamCalls, Map<String, Integer> callsByTag, Duration elapsed,
			int unavailable) {

		/** Every broken promise, one line each; empty when the storm kept them all. */
		public List<String> violations() {
			ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
			this.answers.forEach((tag, list) -> check(tag, list, this.retries.get(tag), violations));
			this.answers.keySet().forEach((tag) -> {
				int calls = this.callsByTag.getOrDefault(tag, 0);
				if (calls != 1) {
					violations.add(tag + ": upstream called " + calls + " times");
				}
			});
			return List.copyOf(violations);
		}

		private void check(String tag, List<Answer> list, Answer retry, ConcurrentLinkedQueue<String> violations) {
			Answer first = null;
			int originals = 0;
			for (Answer answer : list) {
				if (answer.status() == 200) {
					if (!answer.isReplay()) {
						originals++;
					}
					if (first == null) {
						first = answer;
					}
					else if (!first.sameBody(answer)) {
						violations.add(tag + ": two different 200 bodies: " + first + " / " + answer);
					}
					if (!ChatRequests.answers(answer.body(), tag)) {
						violations.add(tag + ": answered with another request's response: " + answer);
					}
				}
				else if (answer.status() != 409 || !IN_PROGRESS.equals(answer.code())) {
					violations.add(tag + ": neither 200 nor 409 in progress: " + answer);
				}
			}
			if (originals != 1) {
				violations.add(tag + ": " + originals + " original (not replayed) answers instead of 1");
			}
			if (retry == null || retry.status() != 200 || !retry.isReplay()) {
				violations.add(tag + ": the retry after the storm was not a replay: " + retry);
			}
			else if (first != null && !first.sameBody(retry)) {
				violations.add(tag + ": the retry replayed other bytes: " + retry + " / " + first);
			}
		}

		public long requests() {
			return this.answers.values().stream().mapToLong(List::size).sum();
		}

		public long count(int status, boolean replayed) {
			return this.answers.values()
				.stream()
				.flatMap(List::stream)
				.filter((answer) -> answer.status() == status && (status != 200 || answer.isReplay() == replayed))
				.count();
		}

		public long requestsPerSecond() {
			return requests() * 1000 / Math.max(1, this.elapsed.toMillis());
		}

		/** The Markdown table row for the report. */
		public String summary(String store) {
			return "| store | instances | keys × duplicates | requests | 200 original | 200 replayed | 409 in progress | "
					+ "other | 503 sent again | upstream calls | retries replayed | time | req/s |\n"
					+ "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
					+ "| %s | %d | %d × %d | %d | %d | %d | %d | %d | %d | %d | %d | %.1fs | %d |\n".formatted(store,
							this.instances, this.keys, this.duplicates, requests(), count(200, false), count(200, true),
							count(409, false), requests() - count(200, false) - count(200, true) - count(409, false),
							this.unavailable, this.upstreamCalls,
							this.retries.values().stream().filter((a) -> a.status() == 200 && a.isReplay()).count(),
							this.elapsed.toMillis() / 1000.0, requestsPerSecond());
		}

	}

}
