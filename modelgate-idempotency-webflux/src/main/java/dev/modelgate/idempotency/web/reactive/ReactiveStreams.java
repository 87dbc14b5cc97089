package dev.modelgate.idempotency.web.reactive;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.AsyncLease;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.internal.AsyncSettlement;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.SseEvents;
import dev.modelgate.idempotency.web.internal.StreamCursor;
import dev.modelgate.idempotency.web.internal.StreamReporting;

/**
 * Recorded Server-Sent Events streams on the reactive side, as the servlet filter's
 * {@code StreamRecorder} and {@code StreamFollower} record and follow them (the same records, so
 * either stack can follow a stream the other recorded).
 *
 * <p>Recording: each flush of the handler is cut into complete events, numbered (an {@code id:} line
 * with the sequence), appended to the store in one call, and only then sent to the client, so that
 * every id a client has seen is in the store. The handler's stream is subscribed apart from the
 * client's connection: a client that goes away is no longer written to, and the stream goes on being
 * recorded to its end, or to {@code stream.max-duration}. Past a limit recording stops (the key stays
 * spent, retries get 410) and the rest is delivered.
 *
 * <p>Following: a retry after the end, a duplicate while it streams (polling the store every
 * {@code stream.poll-interval}), either after a {@code Last-Event-ID}. A stream that will not complete
 * ends with an {@code event: error}.
 */
final class ReactiveStreams {

	private static final Log logger = LogFactory.getLog(ReactiveStreams.class);

	private final AsyncIdempotencyStore store;

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	private final StreamSettings settings;

	private final Scheduler timers;

	ReactiveStreams(AsyncIdempotencyStore store, ReplayHeaders replayHeaders, String replayedHeaderName,
			StreamSettings settings, Scheduler timers) {
		this.store = store;
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
		this.settings = settings;
		this.timers = timers;
	}

	/**
	 * Records the run's stream and sends it to the client.
	 * @return completes when the client's response is done (or the client went away)
	 */
	Mono<Void> record(ReactiveSettlement settlement, CapturedResponse captured, ServerHttpResponse client,
			Flux<List<DataBuffer>> elements, StreamReporting reporting) {
		settlement.streaming();
		Recording recording = new Recording(settlement, client, reporting);
		byte[] head = captured.streamHeadOutcome().payload();
		recording.start(head, elements);
		return client.writeAndFlushWith(recording.toClient.asFlux()
			.map((bytes) -> Mono.fromSupplier(() -> client.bufferFactory().wrap(bytes))))
			.doOnCancel(recording::clientWentAway)
			.doOnError((ex) -> recording.clientWentAway());
	}

	/**
	 * Follows the scope's recorded stream.
	 * @param from where the client resumes, from {@code Last-Event-ID}
	 * @return empty, with nothing written, when the scope holds no stream (yet); else what sends it
	 */
	Mono<Optional<Mono<Void>>> follow(String scope, LastEventId from, ServerHttpResponse response) {
		return Mono.defer(() -> StoreAnswers.of(this.store.readStream(scope, from.sequence(), StreamSettings.READ_BATCH),
				this.timers))
			.onErrorMap((ex) -> !(ex instanceof IdempotencyStoreException),
					(ex) -> new IdempotencyStoreException("readStream failed", ex))
			.map((first) -> first.map((slice) -> {
				writeHead(slice.head(), response);
				StreamCursor cursor = new StreamCursor(slice, from, this.settings);
				Flux<StreamCursor.Step> steps = Flux.just(cursor.first()).expand((step) -> next(scope, cursor, step));
				return response.writeAndFlushWith(steps.map((step) -> Flux.fromIterable(step.data())
					.map((bytes) -> response.bufferFactory().wrap(bytes))));
			}));
	}

	private Mono<StreamCursor.Step> next(String scope, StreamCursor cursor, StreamCursor.Step step) {
		if (step.next() == StreamCursor.Next.DONE) {
			return Mono.empty();
		}
		Mono<Long> pause = (step.next() == StreamCursor.Next.WAIT) ? Mono.delay(this.settings.pollInterval(), this.timers)
				: Mono.just(0L);
		return pause
			.then(Mono.defer(() -> StoreAnswers.of(this.store.readStream(scope, cursor.after(), StreamSettings.READ_BATCH),
					this.timers)))
			.map(cursor::next)
			.onErrorResume((ex) -> Mono.just(cursor.unreadable()));
	}

	private void writeHead(byte[] head, ServerHttpResponse response) {
		HttpResponseRecord record = HttpResponseRecord.decode(new StoredOutcome(StoredOutcome.Kind.RESPONSE, head));
		response.setStatusCode(HttpStatusCode.valueOf(record.status()));
		record.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.getHeaders().add(name, value));
			}
		});
		response.getHeaders().set(this.replayedHeaderName, "true");
	}

	/** One run's stream being recorded: all its state is touched from the stream's serial signals. */
	private final class Recording {

		final Sinks.Many<byte[]> toClient = Sinks.many().unicast().onBackpressureBuffer();

		private final ReactiveSettlement settlement;

		private final ServerHttpResponse client;

		private final StreamReporting reporting;

		/** The attempt's name in the ids of its events. */
		private final String attemptTag;

		private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

		private volatile boolean recording;

		private volatile boolean clientGone;

		private volatile Disposable generation;

		private volatile Disposable deadline;

		private long sequence;

		private long bytes;

		private long startedNanos;

		private long addedBeforeFirstEvent = -1;

		Recording(ReactiveSettlement settlement, ServerHttpResponse client, StreamReporting reporting) {
			this.settlement = settlement;
			this.client = client;
			this.reporting = reporting;
			this.attemptTag = settlement.lease().attemptTag();
		}

		void start(byte[] head, Flux<List<DataBuffer>> elements) {
			this.startedNanos = System.nanoTime();
			AsyncLease lease = this.settlement.lease();
			this.generation = Mono.defer(() -> StoreAnswers.of(lease.openStream(head), ReactiveStreams.this.timers))
				.onErrorResume((ex) -> {
					stopRecording("the store failed when the stream began: " + AsyncSettlement.describe(ex), false);
					return Mono.just(Boolean.FALSE);
				})
				.flatMapMany((opened) -> {
					if (opened && !this.settlement.isSettled()) {
						this.recording = true;
						this.addedBeforeFirstEvent = System.nanoTime() - this.startedNanos;
						this.deadline = Mono.delay(ReactiveStreams.this.settings.maxDuration(), ReactiveStreams.this.timers)
							.subscribe((tick) -> outlived());
					}
					else if (!this.settlement.isSettled()) {
						stopRecording("the lease was lost before the stream began", false);
					}
					return elements.concatMap(this::flushed, 1);
				})
				.doOnComplete(() -> ended(false))
				.doOnError((ex) -> ended(true))
				.doOnCancel(() -> ended(true))
				.subscribe((done) -> {
				}, (ex) -> {
				});
		}

		/** One flush of the handler: cut, number, append, then send. */
		private Mono<Void> flushed(List<DataBuffer> buffers) {
			long flushStarted = System.nanoTime();
			for (DataBuffer buffer : buffers) {
				byte[] chunk = new byte[buffer.readableByteCount()];
				buffer.read(chunk);
				DataBufferUtils.release(buffer);
				this.pending.writeBytes(chunk);
			}
			if (!this.recording) {
				send(drainPending());
				return Mono.empty();
			}
			List<byte[]> events = cutEvents();
			if (events.isEmpty()) {
				return Mono.empty();
			}
			long size = 0;
			for (byte[] event : events) {
				size += event.length;
			}
			StreamSettings limits = ReactiveStreams.this.settings;
			if (this.sequence + events.size() > limits.maxEvents() || this.bytes + size > limits.maxBytes()) {
				stopRecording("the stream outgrew " + limits.maxEvents() + " events or " + limits.maxBytes()
						+ " bytes; it is delivered but not recorded, and retries will get 410", true);
				events.forEach(this::send);
				send(drainPending());
				return Mono.empty();
			}
			long appendedSize = size;
			return Mono
				.defer(() -> StoreAnswers.of(this.settlement.lease().appendEvents(this.sequence + 1, events),
						ReactiveStreams.this.timers))
				.onErrorResume((ex) -> {
					stopRecording("the store failed in the middle of the stream: " + AsyncSettlement.describe(ex),
							false);
					return Mono.just(Boolean.FALSE);
				})
				.doOnNext((appended) -> {
					if (appended && this.recording) {
						this.sequence += events.size();
						this.bytes += appendedSize;
						this.reporting.appended(events.size(), appendedSize);
					}
					else if (this.recording) {
						stopRecording("the lease was lost in the middle of the stream", false);
					}
					events.forEach(this::send);
					if (!this.recording) {
						send(drainPending());
					}
					if (this.addedBeforeFirstEvent >= 0) {
						this.reporting.firstEvent(this.addedBeforeFirstEvent + (System.nanoTime() - flushStarted));
						this.addedBeforeFirstEvent = -1;
					}
				})
				.then();
		}

		private List<byte[]> cutEvents() {
			byte[] written = this.pending.toByteArray();
			List<byte[]> events = new ArrayList<>();
			int start = 0;
			int end;
			while ((end = SseEvents.endOfEvent(written, start, written.length)) > 0) {
				byte[] event = new byte[end - start];
				System.arraycopy(written, start, event, 0, event.length);
				events.add(SseEvents.withId(event, this.sequence + events.size() + 1, this.attemptTag));
				start = end;
			}
			if (start > 0) {
				this.pending.reset();
				this.pending.write(written, start, written.length - start);
			}
			return events;
		}

		private byte[] drainPending() {
			byte[] rest = this.pending.toByteArray();
			this.pending.reset();
			return rest;
		}

		/**
		 * The handler's stream ended: a normal end completes the record (a retry replays it), a failure
		 * releases the key (a retry generates anew); then the client's response ends.
		 */
		private void ended(boolean failed) {
			Disposable timer = this.deadline;
			if (timer != null) {
				timer.dispose();
			}
			send(drainPending());
			Mono<?> settled;
			if (!this.recording) {
				settled = Mono.empty();
			}
			else if (failed) {
				this.recording = false;
				settled = this.settlement.releaseStream("the stream failed before its end");
			}
			else {
				this.recording = false;
				settled = this.settlement.recordStream();
			}
			settled.doFinally((signal) -> this.toClient.tryEmitComplete()).subscribe((done) -> {
			}, (ex) -> {
			});
		}

		/**
		 * Stops recording; the rest of the stream is delivered as the handler writes it.
		 * @param spent whether the key stays spent ("done, result not kept"); otherwise the lease is left
		 * to run out
		 */
		private void stopRecording(String why, boolean spent) {
			this.recording = false;
			Disposable timer = this.deadline;
			if (timer != null) {
				timer.dispose();
			}
			if (spent) {
				logger.warn("Stream of idempotency scope " + this.settlement.scope() + ": " + why);
				this.settlement.record(null).subscribe();
			}
			else {
				this.settlement.abandon(why);
			}
		}

		private void outlived() {
			if (!this.recording) {
				return;
			}
			stopRecording("the stream outlived " + ReactiveStreams.this.settings.maxDuration()
					+ "; it is no longer recorded, and retries will get 410", true);
			if (this.clientGone) {
				// Nobody receives it and nothing records it: the generation ends.
				Disposable running = this.generation;
				if (running != null) {
					running.dispose();
				}
			}
		}

		private void send(byte[] bytes) {
			if (bytes.length > 0 && !this.clientGone) {
				this.toClient.tryEmitNext(bytes);
			}
		}

		void clientWentAway() {
			if (!this.clientGone) {
				this.clientGone = true;
				if (logger.isDebugEnabled()) {
					logger.debug("Client of idempotency scope " + this.settlement.scope()
							+ " went away; the stream goes on being recorded");
				}
			}
		}

	}

}
