package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.LastEventId;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamCursor;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

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

	/** One follower's response; touched by one thread at a time. */
	private final class Following extends ClientWatch {

		private final String scope;

		private final StreamCursor cursor;

		private final OutputStream out;

		private final Runnable done;

		private final AtomicBoolean finished = new AtomicBoolean();

		private volatile @Nullable AsyncContext async;

		Following(String scope, StreamCursor cursor, OutputStream out, Runnable done) {
			this.scope = scope;
			this.cursor = cursor;
			this.out = out;
			this.done = done;
		}

		/** Writes a step's data; {@return what next} */
		StreamCursor.Next send(StreamCursor.Step step) throws IOException {
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
			StreamCursor.Next next;
			try {
				do {
					next = readAndSend();
				}
				while (next == StreamCursor.Next.READ_NOW);
			}
			catch (IOException | RuntimeException ex) {
				if (logger.isDebugEnabled()) {
					logger.debug("Follower of idempotency scope " + this.scope + " went away: " + ex);
				}
				next = StreamCursor.Next.DONE;
			}
			if (next == StreamCursor.Next.DONE) {
				finish();
			}
			else {
				schedule();
			}
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
