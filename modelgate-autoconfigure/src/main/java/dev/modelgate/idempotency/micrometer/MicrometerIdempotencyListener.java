package dev.modelgate.idempotency.micrometer;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;

/**
 * Counts the filter's decisions and times keyed requests in a {@link MeterRegistry}:
 * <ul>
 * <li>{@value #DECISIONS}: a counter tagged {@code outcome}, {@code method} and {@code endpoint}
 * (the route pattern, never the raw path, so the number of series stays bounded; for
 * {@code IdempotencyTemplate} calls and {@code @IdempotentOperation} methods, {@code method} is
 * {@code OPERATION} and {@code endpoint} the operation's name);</li>
 * <li>{@value #REQUESTS}: a timer tagged {@code kind} ({@code first} when the handler ran,
 * {@code replay} when a stored response was replayed), {@code method} and {@code endpoint}, so that
 * the latency of replays can be read next to that of first executions.</li>
 * </ul>
 */
public class MicrometerIdempotencyListener implements IdempotencyListener {

	/** Name of the decision counter. */
	public static final String DECISIONS = "modelgate.idempotency.decisions";

	/** Name of the timer of keyed requests by kind. */
	public static final String REQUESTS = "modelgate.idempotency.requests";

	private final Meter.MeterProvider<Counter> decisions;

	private final Meter.MeterProvider<Timer> requests;

	/** @param registry where the decision counter and the request timer are registered */
	public MicrometerIdempotencyListener(MeterRegistry registry) {
		this.decisions = Counter.builder(DECISIONS)
			.description("Decisions of the Idempotency-Key filter, by outcome and endpoint")
			.withRegistry(registry);
		this.requests = Timer.builder(REQUESTS)
			.description("Time to answer keyed requests, first executions and replays apart")
			.withRegistry(registry);
	}

	@Override
	public void onDecision(IdempotencyDecision decision) {
		this.decisions
			.withTags(Tags.of("outcome", decision.outcome().tagValue())
				.and(endpointTags(decision.method(), decision.route())))
			.increment();
	}

	@Override
	public void onResponse(ResponseKind kind, String method, String route, Duration duration) {
		this.requests.withTags(Tags.of("kind", kind.tagValue()).and(endpointTags(method, route))).record(duration);
	}

	private static Tags endpointTags(String method, String route) {
		return Tags.of("method", method, "endpoint", route);
	}

}
