package dev.modelgate.idempotency.web.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.LastEventId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A follower that went asynchronous writes without blocking: what its client cannot take yet waits
 * in the follower, which reads nothing more from the store meanwhile, and is written when the
 * container says the client can take more; the response ends once the last bytes are flushed, or
 * when the container reports the client gone. The polls run when the test says, on a scheduler that
 * only queues them.
 */
class StreamFollowerNonBlockingTests {

	private static final Duration LEASE = Duration.ofMinutes(1);

	private final CountingStore store = new CountingStore();

	private final ManualScheduler followers = new ManualScheduler();

	private final ClientOutput output = new ClientOutput();

	private final MockHttpServletRequest request = new MockHttpServletRequest();

	private final CountDownLatch done = new CountDownLatch(1);

	@BeforeEach
	void beginStream() {
		byte[] head = HttpResponseRecord.encode(200, Map.of("Content-Type", List.of("text/event-stream")), new byte[0], 0)
			.payload();
		assertThat(this.store.begin("scope", "fp", "holder", LEASE).outcome()).isEqualTo(Outcome.ACQUIRED);
		this.store.openStream("scope", "holder", head);
		this.store.appendEvents("scope", "holder", 1, List.of(event("a1"), event("a2")));
		this.request.setAsyncSupported(true);
	}

	@AfterEach
	void stopScheduler() {
		this.followers.shutdownNow();
	}

	@Test
	void clientThatCannotTakeMoreIsSentTheRestWhenItCanAndNothingMoreIsReadMeanwhile() throws Exception {
		follow();
		// What the store held went out on the request thread, blocking, before the request went asynchronous.
		assertThat(this.output.text()).contains("a1", "a2");
		assertThat(this.output.listener).isNotNull();

		this.output.ready = false;
		this.store.appendEvents("scope", "holder", 3, List.of(event("b1"), event("b2")));
		this.followers.runNext();
		assertThat(this.store.reads.get()).isEqualTo(2);
		assertThat(this.output.text()).doesNotContain("b1");

		// The client has not taken b1 and b2: the next poll reads nothing.
		this.store.appendEvents("scope", "holder", 5, List.of(event("c1")));
		this.followers.runNext();
		assertThat(this.store.reads.get()).isEqualTo(2);
		assertThat(this.output.text()).doesNotContain("b1");

		int flushes = this.output.flushes;
		this.output.ready = true;
		this.output.listener.onWritePossible();
		assertThat(this.output.text()).contains("b1", "b2").doesNotContain("c1");
		assertThat(this.output.text().indexOf("b1")).isLessThan(this.output.text().indexOf("b2"));
		assertThat(this.output.flushes).isGreaterThan(flushes);

		this.followers.runNext();
		assertThat(this.output.text()).contains("c1");
		assertThat(this.done.getCount()).isOne();

		this.store.completeStream("scope", "holder", Duration.ofMinutes(5));
		this.followers.runNext();
		assertThat(this.done.await(0, TimeUnit.SECONDS)).isTrue();
		assertThat(this.followers.queued()).isZero();
		assertThat(this.output.text()).endsWith(new String(event("c1"), StandardCharsets.UTF_8));
	}

	@Test
	void streamThatEndsWhileTheClientCannotTakeMoreEndsOnceTheLastBytesAreFlushed() throws Exception {
		follow();
		this.output.ready = false;
		this.store.appendEvents("scope", "holder", 3, List.of(event("b1")));
		this.store.completeStream("scope", "holder", Duration.ofMinutes(5));
		this.followers.runNext();
		assertThat(this.done.getCount()).isOne();

		this.output.ready = true;
		this.output.listener.onWritePossible();
		assertThat(this.output.text()).endsWith(new String(event("b1"), StandardCharsets.UTF_8));
		assertThat(this.output.unflushed).isZero();
		assertThat(this.done.await(0, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void clientTheContainerReportsGoneEndsTheFollowerAndItsPolls() throws Exception {
		follow();
		this.output.ready = false;
		this.store.appendEvents("scope", "holder", 3, List.of(event("b1")));
		this.followers.runNext();

		this.output.listener.onError(new IOException("write timed out"));
		assertThat(this.done.await(0, TimeUnit.SECONDS)).isTrue();
		this.followers.runNext();
		assertThat(this.followers.queued()).isZero();
		assertThat(this.output.text()).doesNotContain("b1");
	}

	private void follow() throws Exception {
		StreamFollower follower = new StreamFollower(this.store, new ReplayHeaders(List.of()), "Idempotent-Replayed",
				new StreamSettings(10_000, 8L * 1024 * 1024, Duration.ofMinutes(10), Duration.ofMillis(100)),
				this.followers);
		MockHttpServletResponse response = new MockHttpServletResponse() {

			@Override
			public ServletOutputStream getOutputStream() {
				return StreamFollowerNonBlockingTests.this.output;
			}

		};
		assertThat(follower.follow("scope", LastEventId.NONE, this.request, response, () -> {
		}, this.done::countDown)).isTrue();
		assertThat(this.request.isAsyncStarted()).isTrue();
		assertThat(this.followers.queued()).isOne();
	}

	private static byte[] event(String data) {
		return ("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8);
	}

	/** The memory store, counting the reads of streams. */
	private static final class CountingStore extends InMemoryIdempotencyStore {

		final AtomicInteger reads = new AtomicInteger();

		@Override
		public synchronized Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
			this.reads.incrementAndGet();
			return super.readStream(scope, afterSequence, max);
		}

	}

	/** Queues what is scheduled; the test runs it. */
	private static final class ManualScheduler extends ScheduledThreadPoolExecutor {

		private final Queue<Runnable> tasks = new ArrayDeque<>();

		ManualScheduler() {
			super(1);
		}

		@Override
		public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
			this.tasks.add(command);
			return null;
		}

		void runNext() {
			Runnable task;
			synchronized (this) {
				task = this.tasks.remove();
			}
			task.run();
		}

		synchronized int queued() {
			return this.tasks.size();
		}

	}

	/**
	 * A client's connection as a container's non-blocking output shows it: writes and flushes are
	 * refused while it is not ready, as the Servlet specification requires of the caller.
	 */
	private static final class ClientOutput extends ServletOutputStream {

		private final ByteArrayOutputStream written = new ByteArrayOutputStream();

		volatile boolean ready = true;

		volatile @Nullable WriteListener listener;

		int flushes;

		int unflushed;

		@Override
		public boolean isReady() {
			return this.ready;
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.listener = listener;
		}

		@Override
		public void write(int b) {
			checkReady();
			this.written.write(b);
			this.unflushed++;
		}

		@Override
		public void write(byte[] b, int off, int len) {
			checkReady();
			this.written.write(b, off, len);
			this.unflushed += len;
		}

		@Override
		public void flush() {
			checkReady();
			this.flushes++;
			this.unflushed = 0;
		}

		private void checkReady() {
			if (!this.ready) {
				throw new IllegalStateException("written while not ready");
			}
		}

		String text() {
			return this.written.toString(StandardCharsets.UTF_8);
		}

	}

}
