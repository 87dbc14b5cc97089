package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.StreamCursor;

/**
 * Sends a recorded stream to a client that did not produce it: a retry after the end (a replay), a
 * duplicate while it streams (attached: the events so far, then each new one, asking the store every
 * poll interval, from any instance), either of them after a {@code Last-Event-ID}. A stream that will
 * not complete (released after a failure, expired, or no longer recorded) ends with an
 * {@code event: error}, so that a follower is never left waiting. So does a stream taken over by
 * another attempt (its holder died, its lease ran out, a retry began it again): the new attempt's
 * events go on from sequence 1 of a different generation, and following them would splice two
 * attempts into one stream nobody generated ({@link StreamSlice#attempt()}).
 *
 * <p>What is in the store is sent on the request thread. A follower that has to wait for the next
 * events gives its thread back: the request goes asynchronous, and the next reads and writes run on
 * the {@code followers} scheduler every poll interval, so that a crowd of followers of a long stream
 * does not take the container's request threads from unrelated requests. Where the request cannot go
 * asynchronous (a filter or servlet registered without async support), the thread waits, as before.
 *
 * <p>Once asynchronous, a follower writes without blocking (a {@link WriteListener}): what the
 * client cannot take yet waits in the follower, which reads nothing more from the store until the
 * client has taken it, and the container calls back when the client can take more. So a client
 * that reads slowly, or not at all, holds none of the few {@code followers} threads and delays no
 * other follower; the container's write timeout ends it. A response whose output stream cannot
 * write without blocking (a wrapper that does not pass the listener on) is written as before.
 */
final class StreamFollower {

	private static final Log logger = LogFactory.getLog(StreamFollower.class);

	private final IdempotencyStore store;

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	private final StreamSettings settings;

	private final ScheduledExecutorService followers;

	StreamFollower(IdempotencyStore store, ReplayHeaders replayHeaders, String replayedHeaderName,
			StreamSettings settings, ScheduledExecutorService followers) {
		this.store = store;
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
		this.settings = settings;
		this.followers = followers;
	}

	/**
	 * Follows the scope's stream to its end, or until the client goes away.
	 * @param from where the client resumes, from {@code Last-Event-ID}
	 * @param found called when the stream is there, before anything is written
	 * @param done called once the response is done (now, or later when the request went asynchronous)
	 * @return {@code false}, with nothing written and neither callback called, when the scope holds no
	 * stream (yet)
	 * @throws dev.modelgate.idempotency.core.IdempotencyStoreException when the first read fails
	 */
	boolean follow(String scope, LastEventId from, HttpServletRequest request, HttpServletResponse response,
			Runnable found, Runnable done) throws IOException {
		Optional<StreamSlice> first = this.store.readStream(scope, from.sequence(), StreamSettings.READ_BATCH);
		if (first.isEmpty()) {
			return false;
		}
		found.run();
		writeHead(first.get().head(), response);
		StreamCursor cursor = new StreamCursor(first.get(), from, this.settings);
		Following following = new Following(scope, cursor, response.getOutputStream(), done);
		try {
			StreamCursor.Next next = following.send(cursor.first());
			while (next != StreamCursor.Next.DONE) {
				if (next == StreamCursor.Next.WAIT) {
					if (request.isAsyncSupported()) {
						following.goAsynchronous(request, response);
						return true;
					}
					Thread.sleep(this.settings.pollInterval().toMillis());
				}
				next = following.readAndSend();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException | RuntimeException ex) {
			following.finish();
			throw ex;
		}
		following.finish();
		return true;
	}

	private void writeHead(byte[] head, HttpServletResponse response) throws IOException {
		HttpResponseRecord record = HttpResponseRecord.decode(new StoredOutcome(StoredOutcome.Kind.RESPONSE, head));
		response.setStatus(record.status());
		record.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.addHeader(name, value));
			}
		});
		response.setHeader(this.replayedHeaderName, "true");
		response.flushBuffer();
	}

	/**
	 * One follower's response. Its cursor is read by one thread at a time (the request thread, then
	 * the scheduler's polls, one after the other); once it writes without blocking, what it writes is
	 * drained by whichever thread comes, the scheduler's or the container's, one at a time.
	 */
	private final class Following extends ClientWatch implements WriteListener {

		private final String scope;

		private final StreamCursor cursor;

		private final ServletOutputStream out;

		private final Runnable done;

		private final AtomicBoolean finished = new AtomicBoolean();

		private volatile @Nullable AsyncContext async;

		/** Whether the output stream writes without blocking (set once, before the first poll). */
		private volatile boolean nonBlocking;

		/** Data sent but not yet written, while the client cannot take it. */
		private final Queue<byte[]> pending = new ConcurrentLinkedQueue<>();

		/** Whether data was written since the last flush. Touched only while draining. */
		private boolean unflushed;

		/** Whether the response ends once everything pending is written and flushed. */
		private volatile boolean endWhenWritten;

		/** Calls to {@link #drain()} not yet served: the first caller drains, the others leave it more. */
		private final AtomicInteger drains = new AtomicInteger();

		Following(String scope, StreamCursor cursor, ServletOutputStream out, Runnable done) {
			this.scope = scope;
			this.cursor = cursor;
			this.out = out;
			this.done = done;
		}

		/** Writes a step's data, or hands it to the drain once writing does not block; {@return what next} */
		StreamCursor.Next send(StreamCursor.Step step) throws IOException {
			if (this.nonBlocking) {
				this.pending.addAll(step.data());
				drain();
				return step.next();
			}
			for (byte[] data : step.data()) {
				this.out.write(data);
			}
			this.out.flush();
			return step.next();
		}

		/** Asks the store for the events after the last one sent, and sends them. */
		StreamCursor.Next readAndSend() throws IOException {
			StreamCursor.Step step;
			try {
				step = this.cursor.next(StreamFollower.this.store.readStream(this.scope, this.cursor.after(),
						StreamSettings.READ_BATCH));
			}
			catch (RuntimeException ex) {
				step = this.cursor.unreadable();
			}
			return send(step);
		}

		void goAsynchronous(HttpServletRequest request, HttpServletResponse response) {
			AsyncContext context = request.startAsync(request, response);
			// The stream's own deadline (stream.max-duration) ends it; the container's must not first.
			context.setTimeout(0);
			context.addListener(this);
			this.async = context;
			try {
				this.out.setWriteListener(this);
				this.nonBlocking = true;
			}
			catch (UnsupportedOperationException | IllegalStateException ex) {
				// The stream cannot write without blocking here: written from the scheduler, as it comes.
			}
			schedule();
		}

		private void schedule() {
			try {
				StreamFollower.this.followers.schedule(this::poll,
						StreamFollower.this.settings.pollInterval().toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// The application is stopping.
				finish();
			}
		}

		private void poll() {
			if (clientGone()) {
				finish();
				return;
			}
			// While the client has not taken what it was sent, nothing more is read for it.
			if (!this.endWhenWritten && this.pending.isEmpty()) {
				StreamCursor.Next next;
				try {
					do {
						next = readAndSend();
					}
					while (next == StreamCursor.Next.READ_NOW && this.pending.isEmpty());
				}
				catch (IOException | RuntimeException ex) {
					wentAway(ex);
					return;
				}
				if (next == StreamCursor.Next.DONE) {
					if (!this.nonBlocking) {
						finish();
						return;
					}
					this.endWhenWritten = true;
					drain();
				}
			}
			if (!this.finished.get()) {
				schedule();
			}
		}

		/**
		 * Writes what is pending while the client can take it, then flushes it; ends the response once
		 * all is written when the stream is done. One thread at a time drains: a call that finds
		 * another draining leaves it one more pass. When the client cannot take more, the container
		 * calls {@link #onWritePossible()} once it can.
		 */
		private void drain() {
			if (this.drains.getAndIncrement() != 0) {
				return;
			}
			int missed = 1;
			do {
				try {
					writeWhileReady();
				}
				catch (IOException | RuntimeException ex) {
					wentAway(ex);
				}
				missed = this.drains.addAndGet(-missed);
			}
			while (missed != 0);
		}

		private void writeWhileReady() throws IOException {
			while (!this.finished.get() && this.out.isReady()) {
				byte[] data = this.pending.poll();
				if (data != null) {
					this.out.write(data);
					this.unflushed = true;
				}
				else if (this.unflushed) {
					this.unflushed = false;
					this.out.flush();
				}
				else {
					if (this.endWhenWritten) {
						finish();
					}
					return;
				}
			}
		}

		@Override
		public void onWritePossible() {
			drain();
		}

		@Override
		public void onError(Throwable failure) {
			wentAway(failure);
		}

		private void wentAway(Throwable failure) {
			if (logger.isDebugEnabled()) {
				logger.debug("Follower of idempotency scope " + this.scope + " went away: " + failure);
			}
			this.pending.clear();
			finish();
		}

		void finish() {
			if (!this.finished.compareAndSet(false, true)) {
				return;
			}
			try {
				AsyncContext context = this.async;
				if (context != null) {
					context.complete();
				}
			}
			catch (IllegalStateException ex) {
				// The container already ended the request (the client went away).
			}
			finally {
				this.done.run();
			}
		}

		@Override
		void completed() {
			finish();
		}

	}

}
