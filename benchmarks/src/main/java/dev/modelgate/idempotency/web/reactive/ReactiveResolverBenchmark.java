package dev.modelgate.idempotency.web.reactive;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.config.EnableWebFlux;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

/**
 * What finding a WebFlux request's handler costs the filter, for a request to the annotated chat
 * endpoint and one to its unannotated twin (asked when a listener follows every decision).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReactiveResolverBenchmark {

	private AnnotationConfigApplicationContext context;

	private ReactiveIdempotentHandlerResolver resolver;

	/** Built once: the resolver looks up on a copy of the exchange's attributes and leaves the exchange as it was. */
	private MockServerWebExchange annotatedRequest;

	private MockServerWebExchange unannotatedRequest;

	@Setup(Level.Trial)
	public void start() {
		this.context = new AnnotationConfigApplicationContext(WebConfiguration.class, Chat.class);
		List<HandlerMapping> mappings = new ArrayList<>(this.context.getBeansOfType(HandlerMapping.class).values());
		this.resolver = new ReactiveIdempotentHandlerResolver(() -> mappings, new EndpointDefaults(
				Duration.ofHours(24), Duration.ofSeconds(30), Duration.ofSeconds(10), Idempotent.InProgress.REJECT));
		this.resolver.afterSingletonsInstantiated();
		this.annotatedRequest = MockServerWebExchange.from(MockServerHttpRequest.post("/v1/chat/completions"));
		this.unannotatedRequest = MockServerWebExchange.from(MockServerHttpRequest.post("/bench/chat/completions"));
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.context.close();
	}

	@Benchmark
	public IdempotentEndpoint annotated() {
		return this.resolver.resolve(this.annotatedRequest).block();
	}

	@Benchmark
	public IdempotentEndpoint unannotated() {
		return this.resolver.resolve(this.unannotatedRequest).block();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	static class WebConfiguration {

	}

	@RestController
	static class Chat {

		@Idempotent
		@PostMapping("/v1/chat/completions")
		String chat(@RequestBody String body) {
			return body;
		}

		@PostMapping("/bench/chat/completions")
		String twin(@RequestBody String body) {
			return body;
		}

		@PostMapping("/v1/models/{id}")
		String model(@RequestBody String body) {
			return body;
		}

	}

}
