package dev.modelgate.idempotency.web.reactive;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;

/**
 * A reactive application with annotated controllers whose runs are counted, for the WebFlux HTTP
 * tests; its store is the one the test's properties pick, counted too.
 */
@SpringBootApplication
public class ReactiveTestApplication {

	@Bean
	Runs runs() {
		return new Runs();
	}

	@Bean
	StoreCalls storeCalls() {
		return new StoreCalls();
	}

	/** A functional endpoint, made idempotent by the tests' modelgate.idempotency.routes. */
	@Bean
	RouterFunction<ServerResponse> functionalOrders(Runs runs) {
		return RouterFunctions.route(RequestPredicates.POST("/functional/orders/{id}"), (request) -> {
			int run = runs.increment("functional");
			return request.bodyToMono(String.class)
				.defaultIfEmpty("")
				.flatMap((body) -> ServerResponse.status(HttpStatus.CREATED)
					.contentType(MediaType.APPLICATION_JSON)
					.bodyValue("{\"run\":" + run + "}"));
		});
	}

	/** Counts every call the engine makes to the store. */
	@Bean
	static BeanPostProcessor countingAsyncStore(org.springframework.beans.factory.ObjectProvider<StoreCalls> calls) {
		return new BeanPostProcessor() {

			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (!(bean instanceof AsyncIdempotencyStore store)) {
					return bean;
				}
				return Proxy.newProxyInstance(AsyncIdempotencyStore.class.getClassLoader(),
						new Class<?>[] { AsyncIdempotencyStore.class }, (proxy, method, args) -> {
							if (method.getDeclaringClass() == AsyncIdempotencyStore.class) {
								calls.getObject().count.incrementAndGet();
								if (method.getName().equals("begin")) {
									calls.getObject().begins.incrementAndGet();
								}
							}
							if (method.getName().equals("renew")) {
								calls.getObject().renewals.incrementAndGet();
							}
							try {
								return method.invoke(store, args);
							}
							catch (InvocationTargetException ex) {
								throw ex.getCause();
							}
						});
			}

		};
	}

	/** How many times each handler ran. */
	public static class Runs {

		private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

		private volatile Sinks.Empty<Void> gate = openGate();

		int increment(String handler) {
			return this.counts.computeIfAbsent(handler, (name) -> new AtomicInteger()).incrementAndGet();
		}

		public int of(String handler) {
			AtomicInteger count = this.counts.get(handler);
			return (count != null) ? count.get() : 0;
		}

		public void reset() {
			this.counts.clear();
			this.gate = openGate();
		}

		/** Makes thinking handlers wait until {@link #open()}. */
		public void close() {
			this.gate = Sinks.empty();
		}

		public void open() {
			this.gate.tryEmitEmpty();
		}

		Mono<Void> gate() {
			return this.gate.asMono();
		}

		private static Sinks.Empty<Void> openGate() {
			Sinks.Empty<Void> open = Sinks.empty();
			open.tryEmitEmpty();
			return open;
		}

	}

	/** How many store calls were made. */
	public static class StoreCalls {

		final AtomicInteger count = new AtomicInteger();

		final AtomicInteger begins = new AtomicInteger();

		final AtomicInteger renewals = new AtomicInteger();

		public int get() {
			return this.count.get();
		}

		/** {@return how many {@code begin} calls were made} */
		public int begins() {
			return this.begins.get();
		}

		/** {@return how many lease renewals the heartbeats asked the store for} */
		public int renewals() {
			return this.renewals.get();
		}

	}

	@RestController
	static class OrdersController {

		private final Runs runs;

		OrdersController(Runs runs) {
			this.runs = runs;
		}

		@PostMapping("/orders")
		@Idempotent
		Mono<ResponseEntity<Map<String, Object>>> create(@RequestBody Map<String, Object> order,
				@RequestParam(defaultValue = "0") long holdMillis) {
			return held("orders", order, holdMillis);
		}

		@PostMapping("/waiting-orders")
		@Idempotent(inProgress = Idempotent.InProgress.WAIT)
		Mono<ResponseEntity<Map<String, Object>>> createWaiting(@RequestBody Map<String, Object> order,
				@RequestParam(defaultValue = "0") long holdMillis) {
			return held("waiting-orders", order, holdMillis);
		}

		@PostMapping("/short-lease-orders")
		@Idempotent(leaseTtl = "1s")
		Mono<ResponseEntity<Map<String, Object>>> createUnderShortLease(@RequestBody Map<String, Object> order,
				@RequestParam(defaultValue = "0") long holdMillis) {
			return held("short-lease-orders", order, holdMillis);
		}

		@PostMapping("/spent-orders")
		@Idempotent(ttl = "1s", spentKeyRetention = "3s")
		Mono<ResponseEntity<Map<String, Object>>> createSpent(@RequestBody Map<String, Object> order) {
			return held("spent-orders", order, 0);
		}

		@PostMapping("/gated-orders")
		@Idempotent
		Mono<ResponseEntity<Map<String, Object>>> createGated(@RequestBody Map<String, Object> order) {
			return gated("gated-orders", order);
		}

		@PostMapping("/gated-spent-orders")
		@Idempotent(ttl = "1s", spentKeyRetention = "1m")
		Mono<ResponseEntity<Map<String, Object>>> createGatedSpent(@RequestBody Map<String, Object> order) {
			return gated("gated-spent-orders", order);
		}

		@PostMapping("/required-orders")
		@Idempotent(required = true)
		Mono<ResponseEntity<Map<String, Object>>> createRequired(@RequestBody Map<String, Object> order) {
			return held("required-orders", order, 0);
		}

		@PostMapping("/tagged-orders")
		@Idempotent(ignoreFields = "/requestId")
		Mono<ResponseEntity<Map<String, Object>>> createTagged(@RequestBody Map<String, Object> order) {
			return held("tagged-orders", order, 0);
		}

		@PostMapping("/items/{id}")
		@Idempotent
		Mono<Map<String, Object>> item(@PathVariable String id) {
			int run = this.runs.increment("items");
			return Mono.just(Map.of("id", id, "run", run));
		}

		@PostMapping("/statuses")
		@Idempotent
		Mono<ResponseEntity<String>> status(@RequestParam int status) {
			int run = this.runs.increment("statuses");
			return Mono.just(ResponseEntity.status(status).body("run " + run));
		}

		@PostMapping("/throwing")
		@Idempotent
		Mono<String> throwing() {
			this.runs.increment("throwing");
			return Mono.error(new IllegalStateException("the handler failed"));
		}

		/** Fails with an {@link Error}, not an exception: BlockHound's for a blocking call here. */
		@PostMapping("/erroring")
		@Idempotent
		Mono<String> erroring(@RequestParam(defaultValue = "false") boolean thrown) {
			this.runs.increment("erroring");
			if (thrown) {
				throw new AssertionError("the handler broke");
			}
			return Mono.fromCallable(() -> {
				Thread.sleep(1);
				return "slept";
			});
		}

		@PostMapping("/large")
		@Idempotent
		Mono<String> large(@RequestParam int size) {
			this.runs.increment("large");
			return Mono.just("x".repeat(size));
		}

		@PostMapping("/accepted")
		@Idempotent
		@ResponseStatus(HttpStatus.ACCEPTED)
		Mono<Void> accepted() {
			this.runs.increment("accepted");
			return Mono.empty();
		}

		@PostMapping("/plain")
		Mono<String> plain(@RequestBody String body) {
			this.runs.increment("plain");
			return Mono.just("plain " + body.length());
		}

		@PostMapping("/proceeding-orders")
		@Idempotent(onStoreFailure = Idempotent.StoreFailure.PROCEED)
		Mono<ResponseEntity<Map<String, Object>>> createProceeding(@RequestBody Map<String, Object> order) {
			return held("proceeding-orders", order, 0);
		}

		@PostMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		@Idempotent
		Flux<ServerSentEvent<String>> events(@RequestParam int count, @RequestParam(defaultValue = "0") long gapMillis) {
			int run = this.runs.increment("events");
			return Flux.range(1, count)
				.concatMap((i) -> Mono.delay(Duration.ofMillis(gapMillis)).thenReturn(i))
				.doOnNext((i) -> this.runs.increment("events-emitted"))
				.map((i) -> ServerSentEvent.builder("run " + run + " chunk " + i).event("chunk").build());
		}

		/**
		 * Events that begin only once the gate opens, like a model that thinks before its first token or
		 * an upstream that takes its time to answer: the response has no head until then.
		 */
		@PostMapping(path = "/thinking-events")
		@Idempotent
		Mono<ResponseEntity<Flux<ServerSentEvent<String>>>> thinkingEvents(@RequestParam int count) {
			int run = this.runs.increment("thinking-events");
			return this.runs.gate()
				.then(Mono.fromSupplier(() -> ResponseEntity.ok()
					.contentType(MediaType.TEXT_EVENT_STREAM)
					.body(Flux.range(1, count)
						.map((i) -> ServerSentEvent.builder("run " + run + " chunk " + i).event("chunk").build()))));
		}

		/** One event, the gate, a second event; a duplicate meanwhile gets 409 rather than attaching. */
		@PostMapping(path = "/held-events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
		@Idempotent(attachToStream = false)
		Flux<ServerSentEvent<String>> heldEvents() {
			int run = this.runs.increment("held-events");
			return Flux.concat(Mono.just(1), this.runs.gate().then(Mono.just(2)))
				.doOnNext((i) -> this.runs.increment("held-events-emitted"))
				.map((i) -> ServerSentEvent.builder("run " + run + " chunk " + i).event("chunk").build());
		}

		@PostMapping(path = "/uploads", consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
		@Idempotent
		Mono<String> upload(ServerWebExchange exchange) {
			int run = this.runs.increment("uploads");
			return exchange.getMultipartData().map((parts) -> "run " + run + " parts " + parts.keySet());
		}

		@PostMapping(path = "/forms", consumes = MediaType.APPLICATION_FORM_URLENCODED_VALUE)
		@Idempotent
		Mono<String> form(ServerWebExchange exchange) {
			int run = this.runs.increment("forms");
			return exchange.getFormData().map((form) -> "run " + run + " item " + form.getFirst("item"));
		}

		/** Blocks an event-loop thread on purpose, to show that BlockHound is watching. */
		@GetMapping("/blocking")
		Mono<String> blocking() {
			return Mono.fromCallable(() -> {
				Thread.sleep(1);
				return "slept";
			});
		}

		/** Answers once the gate opens (see {@link Runs#close()}). */
		private Mono<ResponseEntity<Map<String, Object>>> gated(String handler, Map<String, Object> order) {
			int run = this.runs.increment(handler);
			return this.runs.gate()
				.thenReturn(ResponseEntity.status(HttpStatus.CREATED)
					.header("Location", "/orders/" + run)
					.body(Map.of("run", run, "order", order)));
		}

		private Mono<ResponseEntity<Map<String, Object>>> held(String handler, Map<String, Object> order,
				long holdMillis) {
			int run = this.runs.increment(handler);
			return Mono.delay(Duration.ofMillis(holdMillis))
				.thenReturn(ResponseEntity.status(HttpStatus.CREATED)
					.header("Location", "/orders/" + run)
					.header("X-Internal", "not replayed")
					.body(Map.of("run", run, "order", order)));
		}

	}

}
