package dev.modelgate.sample.gateway;

import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * Two annotated WebFlux handlers that answer as the mock provider does, for the load benchmark
 * ({@code benchmarks/load/gateway.sh}) to measure the WebFlux filter beside the gateway route filter:
 * one with {@code @Idempotent}, its twin without, and the twin again behind the
 * {@link BenchmarkFloorFilter}. Present only with
 * {@code modelgate.benchmark.enabled=true}.
 */
@RestController
@ConditionalOnBooleanProperty("modelgate.benchmark.enabled")
class BenchmarkEndpoints {

	@Idempotent
	@PostMapping(path = "/benchmark/webflux/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> keyed(@RequestBody String body) {
		return Mono.fromSupplier(() -> MockProvider.completion(body));
	}

	@PostMapping(path = "/benchmark/webflux/twin/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> twin(@RequestBody String body) {
		return Mono.fromSupplier(() -> MockProvider.completion(body));
	}

	/** The twin behind {@link BenchmarkFloorFilter}: what holding a request and its response costs alone. */
	@PostMapping(path = BenchmarkFloorFilter.PATH, consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> floor(@RequestBody String body) {
		return Mono.fromSupplier(() -> MockProvider.completion(body));
	}

}
