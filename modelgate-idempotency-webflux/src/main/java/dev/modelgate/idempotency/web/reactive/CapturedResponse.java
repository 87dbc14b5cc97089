package dev.modelgate.idempotency.web.reactive;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The response of a run under a held lease: its body is held back until it ends, then recorded (or
 * the key released, as the {@link ResponsePolicy} says), and only then handed to the real response,
 * which commits it. A body that grows past {@code maxResponseBytes} is delivered as it comes after
 * "done, result not kept" is recorded (so a retry gets 410). A {@code text/event-stream} 2xx answer
 * goes to the {@link StreamRecording} instead.
 */
final class CapturedResponse extends ServerHttpResponseDecorator {

	private static final Log logger = LogFactory.getLog(CapturedResponse.class);

	private final ReactiveSettlement settlement;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	private final long maxResponseBytes;

	private final StreamRecording streams;

	CapturedResponse(ServerHttpResponse delegate, ReactiveSettlement settlement, ResponsePolicy responsePolicy,
			ReplayHeaders replayHeaders, long maxResponseBytes, StreamRecording streams) {
		super(delegate);
		this.settlement = settlement;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.maxResponseBytes = maxResponseBytes;
		this.streams = streams;
	}

	@Override
	public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
		if (isEventStream()) {
			return this.streams.record(this, getDelegate(), Flux.from(body).map((buffer) -> List.<DataBuffer>of(buffer)));
		}
		return writeHeld(body);
	}

	/** Spring Cloud Gateway and the SSE writer flush per element: each element is one or more events. */
	@Override
	public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
		if (isEventStream()) {
			return this.streams.record(this, getDelegate(),
					Flux.from(body).concatMap((element) -> Flux.from(element).<DataBuffer>map(DataBuffer.class::cast).collectList()));
		}
		return writeHeld(Flux.from(body).concatMap(Flux::from));
	}

	@Override
	public Mono<Void> setComplete() {
		return settle(new byte[0]).then(super.setComplete());
	}

	/**
	 * Settles a run whose handler ended without writing a body (WebFlux then completes the real
	 * response itself, past this decorator): an empty body.
	 */
	Mono<Void> settleIfUnwritten() {
		return (this.settlement.isSettled() || this.settlement.isStreaming()) ? Mono.empty() : settle(new byte[0]);
	}

	int status() {
		HttpStatusCode status = getStatusCode();
		return (status != null) ? status.value() : 200;
	}

	private boolean isEventStream() {
		MediaType contentType = getHeaders().getContentType();
		int status = status();
		return contentType != null && MediaType.TEXT_EVENT_STREAM.isCompatibleWith(contentType) && status >= 200
				&& status < 300;
	}

	/**
	 * Holds the body back until it ends, settles, then hands it to the real response as one
	 * {@code Mono}, so that the server writes the head and the body together (a {@code Flux} would be
	 * written as the head, then the body: two writes to the socket). A body that outgrows the limit goes
	 * on as a {@code Flux} from the moment it does.
	 */
	@SuppressWarnings("unchecked")
	private Mono<Void> writeHeld(Publisher<? extends DataBuffer> body) {
		if (body instanceof Mono<?> single) {
			// Spring's encoders write one value as a Mono: held without a stream's operators.
			return ((Mono<DataBuffer>) single).singleOptional()
				.flatMap((buffer) -> buffer.isPresent() ? writeOne(buffer.get()) : settleAndWrite(new byte[0]))
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		}
		Flux<? extends DataBuffer> buffers = Flux.from(body);
		return Mono.defer(() -> {
			Holder holder = new Holder();
			return buffers.concatMap(holder::add)
				.switchOnFirst((first, overflowing) -> {
					if (first.hasValue()) {
						return getDelegate().writeWith(overflowing.concatWith(Flux.defer(holder::endOverflowed)));
					}
					if (first.isOnError()) {
						return overflowing.then();
					}
					return settleAndWrite(holder.join());
				}, false)
				.then()
				.doOnDiscard(DataBuffer.class, DataBufferUtils::release);
		});
	}

	/** A body of one buffer: settled and written whole, or, past the limit, written as it outgrows it. */
	private Mono<Void> writeOne(DataBuffer buffer) {
		Holder holder = new Holder();
		Publisher<DataBuffer> overflowing = holder.add(buffer);
		if (!holder.overflowed) {
			return settleAndWrite(holder.join());
		}
		return getDelegate().writeWith(Flux.from(overflowing).concatWith(Flux.defer(holder::endOverflowed)));
	}

	/**
	 * Settles, then hands the whole body to the real response in one write: at once when the store has
	 * answered already (the memory store answers on the caller's thread).
	 */
	private Mono<Void> settleAndWrite(byte[] whole) {
		CompletableFuture<?> settled = settling(whole);
		if (settled == null || (settled.isDone() && !settled.isCompletedExceptionally())) {
			return write(whole);
		}
		return this.settlement.answer(settled).then(Mono.defer(() -> write(whole)));
	}

	private Mono<Void> write(byte[] whole) {
		return (whole.length == 0) ? getDelegate().setComplete()
				: getDelegate().writeWith(Mono.just(bufferFactory().wrap(whole)));
	}

	/** Records the body, or releases the key, before anything reaches the client. */
	private Mono<Void> settle(byte[] body) {
		CompletableFuture<?> settled = settling(body);
		return (settled != null) ? this.settlement.answer(settled).then() : Mono.empty();
	}

	/** The store's answer to recording the body or releasing the key; {@code null} when settled before. */
	private @Nullable CompletableFuture<?> settling(byte[] body) {
		if (this.settlement.isSettled()) {
			return null;
		}
		int status = status();
		if (!this.responsePolicy.shouldRecord(status)) {
			return this.settlement.releasing(null);
		}
		return this.settlement.recording(HttpResponseRecord.encode(status, recordedHeaders(), body, body.length));
	}

	/** The status and the headers {@link ReplayHeaders} allows, in {@link HttpResponseRecord}'s format. */
	Map<String, List<String>> recordedHeaders() {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		HttpHeaders all = getHeaders();
		all.forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				headers.put(name, new ArrayList<>(values));
			}
		});
		return headers;
	}

	StoredOutcome streamHeadOutcome() {
		return HttpResponseRecord.encode(status(), recordedHeaders(), new byte[0], 0);
	}

	/** Holds the buffers of one body until it ends or outgrows the limit. */
	private final class Holder {

		private final List<DataBuffer> held = new ArrayList<>();

		private long size;

		private boolean overflowed;

		private boolean settledEarly;

		Publisher<DataBuffer> add(DataBuffer buffer) {
			if (this.overflowed) {
				return Mono.just(buffer);
			}
			this.held.add(buffer);
			this.size += buffer.readableByteCount();
			if (this.size <= CapturedResponse.this.maxResponseBytes) {
				return Flux.empty();
			}
			this.overflowed = true;
			List<DataBuffer> pending = new ArrayList<>(this.held);
			this.held.clear();
			return beforeOverflow().thenMany(Flux.fromIterable(pending));
		}

		/**
		 * An oversized body is about to reach the client: record "done, result not kept" first, so that
		 * the key stays spent (a retry gets 410 rather than running the operation again).
		 */
		private Mono<Void> beforeOverflow() {
			if (!CapturedResponse.this.responsePolicy.shouldRecord(status())) {
				return Mono.empty();
			}
			this.settledEarly = true;
			logger.warn("Response for idempotency scope " + CapturedResponse.this.settlement.scope()
					+ " is larger than " + CapturedResponse.this.maxResponseBytes
					+ " bytes; it is delivered but not stored, and retries will get 410");
			return CapturedResponse.this.settlement.record(null).then();
		}

		/** The body's end once it has outgrown the limit: the key is released unless it was spent first. */
		Publisher<DataBuffer> endOverflowed() {
			return this.settledEarly ? Flux.empty()
					: CapturedResponse.this.settlement.release("the response was not recordable").thenMany(Flux.empty());
		}

		/** The whole held body, its buffers released. */
		byte[] join() {
			byte[] body = new byte[(int) this.size];
			int at = 0;
			for (DataBuffer buffer : this.held) {
				int length = buffer.readableByteCount();
				buffer.read(body, at, length);
				at += length;
				DataBufferUtils.release(buffer);
			}
			this.held.clear();
			return body;
		}

	}

}
