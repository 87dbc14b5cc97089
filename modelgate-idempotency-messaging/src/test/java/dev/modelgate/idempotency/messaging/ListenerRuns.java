package dev.modelgate.idempotency.messaging;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the test listeners did, per listener and key: how often they ran, how often a message reached
 * the container (run or not), and the payloads they ran with. A bean of its own, since the listener
 * beans are proxies.
 */
public class ListenerRuns {

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();

	private final Map<String, CountDownLatch> seen = new ConcurrentHashMap<>();

	private final List<String> payloads = new CopyOnWriteArrayList<>();

	private final Map<String, Set<String>> threads = new ConcurrentHashMap<>();

	private final CountDownLatch started = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	/** @return how often the listener has run with this key, this run included */
	public int ran(String listener, String key, String payload) {
		this.payloads.add(payload);
		this.threads.computeIfAbsent(listener, (k) -> ConcurrentHashMap.newKeySet()).add(Thread.currentThread().getName());
		seen(listener, key).countDown();
		return this.runs.computeIfAbsent(listener + key, (k) -> new AtomicInteger()).incrementAndGet();
	}

	/** Counts a message that reached the listener's container, whether the listener ran or not. */
	public void attempted(String listener, Object key) {
		this.attempts.computeIfAbsent(listener + key, (k) -> new AtomicInteger()).incrementAndGet();
	}

	public int runs(String listener, String key) {
		AtomicInteger runs = this.runs.get(listener + key);
		return (runs != null) ? runs.get() : 0;
	}

	public int attempts(String listener, String key) {
		AtomicInteger attempts = this.attempts.get(listener + key);
		return (attempts != null) ? attempts.get() : 0;
	}

	/** @return counted down when the listener first runs with this key */
	public CountDownLatch seen(String listener, String key) {
		return this.seen.computeIfAbsent(listener + key, (k) -> new CountDownLatch(1));
	}

	/** @return the threads the listener ran on */
	public Set<String> threads(String listener) {
		return this.threads.getOrDefault(listener, Set.of());
	}

	public List<String> payloads() {
		return this.payloads;
	}

	/** @return counted down when the slow listener has started */
	public CountDownLatch started() {
		return this.started;
	}

	/** @return what the slow listener waits for */
	public CountDownLatch release() {
		return this.release;
	}

}
