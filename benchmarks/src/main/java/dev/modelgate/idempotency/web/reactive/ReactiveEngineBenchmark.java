package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.benchmarks.ChatBodies;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StatusResponsePolicy;

/**
 * The reactive engine's own cost per new key, with the server, the dispatcher and the handler lookup
 * taken out, beside the servlet filter's ({@code IdempotencyFilterBenchmark}): mock exchanges, a
 * function that stands for the handler (reads the body, writes a small JSON answer), and the engine as
 * the WebFlux auto-configuration wires it over the memory store with its default limits (the blocking
 * store behind {@link BlockingIdempotencyStoreAdapter}, the default response policy and problem
 * renderer, the {@code Authorization} header as the client's identity; no listener and no observation,
 * as the servlet side's {@code newKeyMemory}). {@code newKeyBare} is the same handler on the same kind
 * of exchange without the engine: the difference is what the engine adds. Unlike the servlet filter's
 * paths, it leaves out the handler lookup (the WebFilter's), so it slightly favours the engine.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReactiveEngineBenchmark {

	static final String ANNOTATED = "/v1/chat/completions";

	private final byte[] requestBody = ChatBodies.ofSize(1024);

	private final byte[] responseBody = ChatBodies.ofSize(512);

	private final AtomicLong keys = new AtomicLong();

	private final IdempotentEndpoint endpoint = new IdempotentEndpoint(ANNOTATED, ANNOTATED, false, Duration.ofHours(24),
			Duration.ofSeconds(30), Duration.ZERO, List.of(), Idempotent.StoreFailure.REJECT, true);

	/** Stands for a trivial handler: reads the body and writes a small JSON answer. */
	private final Function<ServerWebExchange, Mono<Void>> handler = (exchange) -> DataBufferUtils
		.join(exchange.getRequest().getBody())
		.flatMap((body) -> {
			DataBufferUtils.release(body);
			exchange.getResponse().getHeaders().setContentType(MediaType.APPLICATION_JSON);
			return exchange.getResponse()
				.writeWith(Mono.fromSupplier(() -> exchange.getResponse().bufferFactory().wrap(this.responseBody)));
		});

	private BlockingIdempotencyStoreAdapter store;

	private ReactiveIdempotencyEngine engine;

	@Setup(Level.Trial)
	public void start() {
		this.store = BlockingIdempotencyStoreAdapter.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2), 16,
				256);
		this.engine = new ReactiveIdempotencyEngine(this.store, new DefaultReactiveClientIdentityResolver("Authorization"),
				new StatusResponsePolicy(new HashSet<>(StatusResponsePolicy.DEFAULT_RELEASE_STATUSES), false),
				new ReactiveProblemDetailRenderer(ServerCodecConfigurer.create().getWriters()), new ReplayHeaders(List.of()),
				new KeyedRequestSettings("Idempotency-Key", 255, 1024 * 1024, 1024 * 1024, Duration.ofSeconds(1), 422));
		MockServerWebExchange first = keyedExchange();
		this.engine.handle(first, this.endpoint, this.handler).block();
		String answer = first.getResponse().getBodyAsString().block();
		if ((first.getResponse().getStatusCode() != null && !first.getResponse().getStatusCode().is2xxSuccessful())
				|| answer == null || answer.length() != this.responseBody.length) {
			throw new IllegalStateException("a new key was answered " + first.getResponse().getStatusCode() + ": " + answer);
		}
	}

	@TearDown(Level.Trial)
	public void stop() {
		if (this.store != null) {
			this.store.close();
		}
	}

	@Benchmark
	public MockServerWebExchange newKeyBare() {
		MockServerWebExchange exchange = keyedExchange();
		this.handler.apply(exchange).block();
		return exchange;
	}

	@Benchmark
	public MockServerWebExchange newKeyEngine() {
		MockServerWebExchange exchange = keyedExchange();
		this.engine.handle(exchange, this.endpoint, this.handler).block();
		return exchange;
	}

	private MockServerWebExchange keyedExchange() {
		return MockServerWebExchange.from(MockServerHttpRequest.post(ANNOTATED)
			.contentType(MediaType.APPLICATION_JSON)
			.header("Authorization", "Bearer benchmark")
			.header("Idempotency-Key", "key-" + this.keys.incrementAndGet())
			.body(Mono.fromSupplier(() -> DefaultDataBufferFactory.sharedInstance.wrap(this.requestBody))));
	}

}
