package dev.modelgate.idempotency.web.testapp;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Counts how often each handler ran, and lets a test hold a slow handler open. */
public class Invocations {

	private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

	private volatile CountDownLatch gate = new CountDownLatch(0);

	public int increment(String handler) {
		return this.counts.computeIfAbsent(handler, (name) -> new AtomicInteger()).incrementAndGet();
	}

	public int count(String handler) {
		AtomicInteger count = this.counts.get(handler);
		return (count != null) ? count.get() : 0;
	}

	/** Waits until the handler has run {@code count} times, and fails if it ran more often. */
	public void awaitCount(String handler, int count) {
		await(handler + " ran " + count + " times").atMost(Duration.ofSeconds(10)).until(() -> count(handler) >= count);
		assertThat(count(handler)).isEqualTo(count);
	}

	public void reset() {
		this.counts.clear();
		this.gate = new CountDownLatch(0);
	}

	/** Makes slow handlers block until {@link #open()}. */
	public void close() {
		this.gate = new CountDownLatch(1);
	}

	public void open() {
		this.gate.countDown();
	}

	public void awaitGate() throws InterruptedException {
		this.gate.await();
	}

}
