package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.FastByteArrayOutputStream;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.internal.BlockingSettlement;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.SseEvents;
import dev.modelgate.idempotency.web.internal.StreamReporting;

/**
 * The body of an acquired request's response once it went asynchronous. At its first output it
 * decides: a 2xx {@code text/event-stream} is recorded, anything else passes through and the key
 * is released (as it always was for asynchronous responses).
 *
 * <p>While recording, each flush of the handler cuts the complete events written since the last
 * one, numbers them (an {@code id:} line with the sequence), appends them to the store in one call,
 * and only then sends them to the client: every id a client has seen is in the store. A client that
 * goes away is no longer written to, and the handler's stream goes on being recorded to its end.
 * Past a limit, recording stops (the key stays spent, retries get 410) and the rest is delivered.
 * All methods are called under this object's lock, from whichever thread writes.
 */
final class StreamRecorder implements CapturingResponse.Sink {

	private static final Log logger = LogFactory.getLog(StreamRecorder.class);

	private static final String NOT_RECORDABLE = "the response is streamed or asynchronous and cannot be recorded";

	private final Lease lease;

	/** The attempt's name in the ids of its events. */
	private final String attemptTag;

	private final BlockingSettlement settlement;

	private final CapturingResponse capture;

	private final ReplayHeaders replayHeaders;

	private final StreamSettings limits;

	private final ScheduledExecutorService timers;

	private final StreamReporting reporting;

	private final FastByteArrayOutputStream pending = new FastByteArrayOutputStream();

	private Mode mode = Mode.UNDECIDED;

	private long sequence;

	private long bytes;

	private boolean clientGone;

	private boolean ended;

	/** Store time spent before the first event, until it is reported; then -1. */
	private long addedBeforeFirstEvent;

	private ScheduledFuture<?> deadline;

	private Runnable onDeadline = () -> {
	};

	StreamRecorder(Lease lease, BlockingSettlement settlement, CapturingResponse capture, ReplayHeaders replayHeaders,
			StreamSettings limits, ScheduledExecutorService timers, StreamReporting reporting) {
		this.lease = lease;
		this.attemptTag = lease.attemptTag();
		this.settlement = settlement;
		this.capture = capture;
		this.replayHeaders = replayHeaders;
		this.limits = limits;
		this.timers = timers;
		this.reporting = reporting;
	}

	/** @param onDeadline runs when the stream outlived its maximum duration, after recording stopped */
	synchronized void onDeadline(Runnable onDeadline) {
		this.onDeadline = onDeadline;
	}

	@Override
	public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
		decide();
		switch (this.mode) {
			case RECORDING -> this.pending.write(bytes, offset, length);
			// Not a stream: the handler sees its client's failures as it would without the filter.
			case PASS_THROUGH, UNDECIDED -> this.capture.getResponse().getOutputStream().write(bytes, offset, length);
			case NOT_RECORDING -> toClient(bytes, offset, length);
		}
	}

	@Override
	public synchronized void flush() throws IOException {
		long started = System.nanoTime();
		decide();
		if (this.mode == Mode.PASS_THROUGH) {
			((HttpServletResponse) this.capture.getResponse()).flushBuffer();
			return;
		}
		if (this.mode == Mode.RECORDING) {
			List<byte[]> events = cutEvents();
			if (!events.isEmpty()) {
				append(events);
				for (byte[] event : events) {
					toClient(event, 0, event.length);
				}
				flushClient();
				firstEventDelivered(started);
				return;
			}
		}
		flushClient();
	}

	/**
	 * Reports, once, what the library added before the first event went out: opening the stream, and
	 * this flush's append and write, from the handler's flush on.
	 */
	private void firstEventDelivered(long flushStarted) {
		if (this.addedBeforeFirstEvent < 0) {
			return;
		}
		this.reporting.firstEvent(this.addedBeforeFirstEvent + (System.nanoTime() - flushStarted));
		this.addedBeforeFirstEvent = -1;
	}

	/** Whether the stream is being recorded: until it ends, the generation must not stop with its client. */
	synchronized boolean isRecording() {
		return this.mode == Mode.RECORDING && !this.ended;
	}

	/** Whether the response is a stream (recorded, or no longer recorded past a limit), whether or not it ended. */
	synchronized boolean isStream() {
		return this.mode == Mode.RECORDING || this.mode == Mode.NOT_RECORDING;
	}

	/**
	 * The handler's stream ended: a normal end completes the record (a retry replays it), a failure
	 * releases the key (a retry generates anew).
	 * @param failed whether the handler ended with an error (or a timeout)
	 */
	synchronized void ended(boolean failed) {
		if (this.ended) {
			return;
		}
		this.ended = true;
		if (this.deadline != null) {
			this.deadline.cancel(false);
		}
		switch (this.mode) {
			case UNDECIDED -> {
				// A deferred result, say: what it writes now goes straight to the client.
				this.mode = Mode.PASS_THROUGH;
				this.settlement.release(NOT_RECORDABLE);
			}
			case RECORDING -> {
				if (this.pending.size() > 0) {
					// An unterminated last event: delivered as written, not recorded.
					byte[] rest = this.pending.toByteArray();
					this.pending.reset();
					toClient(rest, 0, rest.length);
				}
				if (failed) {
					this.settlement.release("the stream failed before its end");
				}
				else {
					this.settlement.recordStream();
				}
			}
			case PASS_THROUGH, NOT_RECORDING -> {
			}
		}
	}

	private void decide() throws IOException {
		if (this.mode != Mode.UNDECIDED || this.ended) {
			return;
		}
		String contentType = this.capture.getContentType();
		int status = this.capture.getStatus();
		if (contentType == null || !contentType.startsWith("text/event-stream") || status < 200 || status > 299) {
			this.mode = Mode.PASS_THROUGH;
			this.settlement.release(NOT_RECORDABLE);
			return;
		}
		long opening = System.nanoTime();
		try {
			if (!this.lease.openStream(this.capture.streamHead(this.replayHeaders))) {
				stopRecording("the lease was lost before the stream began", false);
				return;
			}
		}
		catch (IdempotencyStoreException ex) {
			stopRecording("the store failed when the stream began: " + ex.describe(), false);
			return;
		}
		this.addedBeforeFirstEvent = System.nanoTime() - opening;
		this.mode = Mode.RECORDING;
		this.deadline = this.timers.schedule(this::outlived, this.limits.maxDuration().toMillis(),
				TimeUnit.MILLISECONDS);
	}

	private List<byte[]> cutEvents() throws IOException {
		byte[] written = this.pending.toByteArrayUnsafe();
		int length = this.pending.size();
		List<byte[]> events = new ArrayList<>();
		int start = 0;
		int end;
		while ((end = SseEvents.endOfEvent(written, start, length)) > 0) {
			byte[] event = new byte[end - start];
			System.arraycopy(written, start, event, 0, event.length);
			events.add(SseEvents.withId(event, this.sequence + events.size() + 1, this.attemptTag));
			start = end;
		}
		if (start > 0) {
			byte[] rest = new byte[length - start];
			System.arraycopy(written, start, rest, 0, rest.length);
			this.pending.reset();
			this.pending.write(rest);
		}
		return events;
	}

	private void append(List<byte[]> events) {
		long size = 0;
		for (byte[] event : events) {
			size += event.length;
		}
		if (this.sequence + events.size() > this.limits.maxEvents() || this.bytes + size > this.limits.maxBytes()) {
			stopRecording("the stream outgrew " + this.limits.maxEvents() + " events or " + this.limits.maxBytes()
					+ " bytes; it is delivered but not recorded, and retries will get 410", true);
			return;
		}
		try {
			if (!this.lease.appendEvents(this.sequence + 1, events)) {
				stopRecording("the lease was lost in the middle of the stream", false);
				return;
			}
		}
		catch (IdempotencyStoreException ex) {
			stopRecording("the store failed in the middle of the stream: " + ex.describe(), false);
			return;
		}
		this.sequence += events.size();
		this.bytes += size;
		this.reporting.appended(events.size(), size);
	}

	/**
	 * Stops recording; the rest of the stream is delivered as the handler writes it.
	 * @param spent whether the key stays spent ("done, result not kept"); otherwise the lease is left
	 * to run out
	 */
	private void stopRecording(String why, boolean spent) {
		this.mode = Mode.NOT_RECORDING;
		if (this.deadline != null) {
			this.deadline.cancel(false);
		}
		if (spent) {
			logger.warn("Stream of idempotency scope " + this.lease.scope() + ": " + why);
			this.settlement.record(null);
		}
		else {
			this.settlement.abandon(why);
		}
		byte[] rest = this.pending.toByteArray();
		this.pending.reset();
		toClient(rest, 0, rest.length);
	}

	private void outlived() {
		Runnable then;
		synchronized (this) {
			if (this.ended || this.mode != Mode.RECORDING) {
				return;
			}
			stopRecording("the stream outlived " + this.limits.maxDuration()
					+ "; it is no longer recorded, and retries will get 410", true);
			then = this.onDeadline;
		}
		then.run();
	}

	private void toClient(byte[] bytes, int offset, int length) {
		if (this.clientGone || length == 0) {
			return;
		}
		try {
			this.capture.getResponse().getOutputStream().write(bytes, offset, length);
		}
		catch (IOException | RuntimeException ex) {
			clientWentAway(ex);
		}
	}

	private void flushClient() {
		if (this.clientGone) {
			return;
		}
		try {
			((HttpServletResponse) this.capture.getResponse()).flushBuffer();
		}
		catch (IOException | RuntimeException ex) {
			clientWentAway(ex);
		}
	}

	private void clientWentAway(Exception ex) {
		this.clientGone = true;
		if (logger.isDebugEnabled()) {
			logger.debug("Client of idempotency scope " + this.lease.scope() + " went away ("
					+ ex.getClass().getSimpleName() + "); the stream goes on being recorded");
		}
	}

	private enum Mode {

		/** Nothing written yet. */
		UNDECIDED,

		/** Server-Sent Events, recorded event by event. */
		RECORDING,

		/** Another asynchronous response: delivered untouched, the key released. */
		PASS_THROUGH,

		/** A stream no longer recorded (over a limit, lease lost, store failed): delivered as written. */
		NOT_RECORDING

	}

}
