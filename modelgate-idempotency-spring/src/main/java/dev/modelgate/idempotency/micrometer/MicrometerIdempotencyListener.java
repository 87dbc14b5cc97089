package dev.modelgate.idempotency.micrometer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;

/**
 * Counts the filter's decisions and times keyed requests in a {@link MeterRegistry}:
 * <ul>
 * <li>{@value #DECISIONS}: a counter tagged {@code outcome}, {@code method} and {@code endpoint}
 * (the route pattern, never the raw path, so the number of series stays bounded; for
 * {@code IdempotencyTemplate} calls and {@code @IdempotentOperation} methods, {@code method} is
 * {@code OPERATION} and {@code endpoint} the operation's name; for {@code @IdempotentListener} message
 * listeners, {@code method} is {@code LISTENER} and {@code endpoint} the listener's scope, its method and
 * consumer group or queue: the same tag keys, since a registry such as Prometheus refuses one meter name
 * with two sets of tag keys);</li>
 * <li>{@value #REQUESTS}: a timer tagged {@code kind} ({@code first} when the handler ran,
 * {@code replay} when a stored response was replayed), {@code method} and {@code endpoint}, so that
 * the latency of replays can be read next to that of first executions;</li>
 * <li>{@value #STREAM_EVENTS}: a distribution summary tagged {@code method} and {@code endpoint},
 * one sample per store write of a recorded stream, valued the events it appended: its count is the
 * store round trips, its total the events, so total over count is the events per round trip;</li>
 * <li>{@value #STREAM_BYTES}: the same store writes, valued the bytes they appended;</li>
 * <li>{@value #STREAM_FIRST_EVENT}: a timer tagged {@code method} and {@code endpoint}, once per
 * recorded stream, of the time the library added before the first event reached the client (the
 * store writes, then the write to the connection);</li>
 * <li>{@value #STATUS_LOOKUPS}: a counter tagged {@code outcome}, one per request to the status
 * resource ({@code status-path}): {@code in_progress}, {@code attached} (following a running stream),
 * {@code replayed}, {@code spent}, {@code result_unavailable}, {@code unknown}, {@code invalid} or
 * {@code store_unavailable}. No endpoint tag: the lookup names no route, only a token.</li>
 * </ul>
 * Stream outcomes are decisions like the others: {@code stream_recorded}, {@code stream_replayed},
 * {@code attached} and, in addition to either of the last two, {@code stream_resumed}.
 */
public class MicrometerIdempotencyListener implements IdempotencyListener {

	/** Name of the decision counter. */
	public static final String DECISIONS = "modelgate.idempotency.decisions";

	/** Name of the timer of keyed requests by kind. */
	public static final String REQUESTS = "modelgate.idempotency.requests";

	/** Name of the summary of events appended per store write of a recorded stream. */
	public static final String STREAM_EVENTS = "modelgate.idempotency.stream.events";

	/** Name of the summary of bytes appended per store write of a recorded stream. */
	public static final String STREAM_BYTES = "modelgate.idempotency.stream.bytes";

	/** Name of the timer of the time added before a recorded stream's first event. */
	public static final String STREAM_FIRST_EVENT = "modelgate.idempotency.stream.first.event";

	/** Name of the counter of status resource lookups by outcome. */
	public static final String STATUS_LOOKUPS = "modelgate.idempotency.status.lookups";

	private final Meter.MeterProvider<Counter> decisions;

	private final Meter.MeterProvider<Counter> statusLookups;

	private final Meter.MeterProvider<Timer> requests;

	private final Meter.MeterProvider<DistributionSummary> streamEvents;

	private final Meter.MeterProvider<DistributionSummary> streamBytes;

	private final Meter.MeterProvider<Timer> streamFirstEvent;

	/**
	 * The counters and timers already looked up, by their tag values: a keyed request reports two or
	 * three times, and building its tags and finding its meter in the registry each time cost more
	 * than the increment (the tag values are bounded: outcomes, kinds, methods and route patterns).
	 */
	private final Map<Series, Counter> decisionCounters = new ConcurrentHashMap<>();

	private final Map<Series, Timer> requestTimers = new ConcurrentHashMap<>();

	/** @param registry where the meters are registered */
	public MicrometerIdempotencyListener(MeterRegistry registry) {
		this.decisions = Counter.builder(DECISIONS)
			.description("Decisions of the Idempotency-Key filter, by outcome and endpoint")
			.withRegistry(registry);
		this.statusLookups = Counter.builder(STATUS_LOOKUPS)
			.description("Requests to the status resource, by what they were answered")
			.withRegistry(registry);
		this.requests = Timer.builder(REQUESTS)
			.description("Time to answer keyed requests, first executions and replays apart")
			.withRegistry(registry);
		this.streamEvents = DistributionSummary.builder(STREAM_EVENTS)
			.description("Events appended per store write of a recorded stream; the count is the store round trips")
			.baseUnit("events")
			.withRegistry(registry);
		this.streamBytes = DistributionSummary.builder(STREAM_BYTES)
			.description("Bytes appended per store write of a recorded stream")
			.baseUnit("bytes")
			.withRegistry(registry);
		this.streamFirstEvent = Timer.builder(STREAM_FIRST_EVENT)
			.description("Time the recording added before a stream's first event reached the client")
			.withRegistry(registry);
	}

	@Override
	public void onDecision(IdempotencyDecision decision) {
		Series series = new Series(decision.outcome(), decision.method(), decision.route());
		Counter counter = this.decisionCounters.get(series);
		if (counter == null) {
			counter = this.decisionCounters.computeIfAbsent(series, (key) -> this.decisions
				.withTags(Tags.of("outcome", decision.outcome().tagValue())
					.and(endpointTags(decision.method(), decision.route()))));
		}
		counter.increment();
	}

	@Override
	public void onResponse(ResponseKind kind, String method, String route, Duration duration) {
		Series series = new Series(kind, method, route);
		Timer timer = this.requestTimers.get(series);
		if (timer == null) {
			timer = this.requestTimers.computeIfAbsent(series,
					(key) -> this.requests.withTags(Tags.of("kind", kind.tagValue()).and(endpointTags(method, route))));
		}
		timer.record(duration);
	}

	@Override
	public void onStreamAppend(String method, String route, int events, long bytes) {
		Tags tags = endpointTags(method, route);
		this.streamEvents.withTags(tags).record(events);
		this.streamBytes.withTags(tags).record(bytes);
	}

	@Override
	public void onStreamFirstEvent(String method, String route, Duration added) {
		this.streamFirstEvent.withTags(endpointTags(method, route)).record(added);
	}

	@Override
	public void onStatusLookup(String outcome) {
		this.statusLookups.withTags("outcome", outcome).increment();
	}

	private static Tags endpointTags(String method, String route) {
		return Tags.of("method", method, "endpoint", route);
	}

	/**
	 * The tag values of one counter or timer.
	 * @param what the {@link IdempotencyOutcome} or {@link ResponseKind}
	 */
	private record Series(Enum<?> what, String method, String route) {

		// Written out: the generated ones are bootstrapped call sites, slower until the JIT has inlined them.
		@Override
		public boolean equals(Object other) {
			return (other instanceof Series series) && this.what == series.what && this.method.equals(series.method)
					&& this.route.equals(series.route);
		}

		@Override
		public int hashCode() {
			return (31 * this.what.hashCode() + this.method.hashCode()) * 31 + this.route.hashCode();
		}

	}

}
