package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;

import jakarta.servlet.http.HttpServletResponse;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.SseEvents;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
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
 */
final class StreamFollower {

	private final IdempotencyStore store;

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	private final StreamSettings settings;

	StreamFollower(IdempotencyStore store, ReplayHeaders replayHeaders, String replayedHeaderName,
			StreamSettings settings) {
		this.store = store;
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
		this.settings = settings;
	}

	/**
	 * Follows the scope's stream to its end, or until the client goes away.
	 * @param afterSequence the last event the client has, from {@code Last-Event-ID} (0: none)
	 * @return {@code false}, with nothing written, when the scope holds no stream (yet)
	 * @throws dev.modelgate.idempotency.core.IdempotencyStoreException when the first read fails
	 */
	boolean follow(String scope, long afterSequence, HttpServletResponse response) throws IOException {
		Optional<StreamSlice> first = this.store.readStream(scope, afterSequence, StreamSettings.READ_BATCH);
		if (first.isEmpty()) {
			return false;
		}
		writeHead(first.get().head(), response);
		OutputStream out = response.getOutputStream();
		long deadline = System.nanoTime() + this.settings.maxDuration().toNanos();
		StreamSlice slice = first.get();
		long after = afterSequence;
		try {
			while (true) {
				for (StreamEvent event : slice.events()) {
					out.write(event.data());
				}
				out.flush();
				after = slice.lastSequence(after);
				boolean more = slice.events().size() == StreamSettings.READ_BATCH;
				if (slice.state() == StreamSlice.State.COMPLETED && !more) {
					return true;
				}
				if (slice.state() == StreamSlice.State.NOT_KEPT) {
					end(out, "idempotency_result_unavailable",
							"the stream outgrew what is recorded; retrying with this key will not run it again");
					return true;
				}
				if (!more) {
					if (System.nanoTime() > deadline) {
						end(out, "idempotency_request_in_progress", "the stream is still running; retry later");
						return true;
					}
					Thread.sleep(this.settings.pollInterval().toMillis());
				}
				Optional<StreamSlice> next = this.store.readStream(scope, after, StreamSettings.READ_BATCH);
				if (next.isEmpty() || !next.get().sameAttempt(first.get())) {
					end(out, "idempotency_stream_interrupted",
							"the stream ended before its end; a retry with the same key runs it again");
					return true;
				}
				slice = next.get();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return true;
		}
		catch (RuntimeException ex) {
			end(out, "idempotency_store_unavailable", "the stream could not be read; retry later");
			return true;
		}
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

	private static void end(OutputStream out, String code, String detail) throws IOException {
		out.write(SseEvents.terminal(code, detail));
		out.flush();
	}

}
