package dev.modelgate.idempotency.web.reactive;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Fuseable;
import reactor.core.publisher.Mono;

import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.reactive.config.PathMatchConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which handler a reactive request is bound for: answered at once for an annotated route that nothing
 * else can serve (or when no annotated mapping matches), and by the handler mappings' full lookup
 * otherwise, so that the answer is always the dispatcher's.
 */
class ReactiveIdempotentHandlerResolverTests {

	private AnnotationConfigApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void unrivalledLiteralRouteIsAnsweredAtOnceWithItsPattern() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		Mono<IdempotentEndpoint> orders = resolver.resolve(exchange("POST", "/orders"));
		assertThat(orders).isInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(orders.block().route()).isEqualTo("/orders");
		assertThat(orders.block().ttl()).isEqualTo(Duration.ofMinutes(5));
	}

	@Test
	void requestMatchingNoAnnotatedMappingIsAnsweredAtOnceWithNothing() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		Mono<IdempotentEndpoint> health = resolver.resolve(exchange("POST", "/health"));
		assertThat(health).isInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(health.block()).isNull();
		assertThat(resolver.resolve(exchange("PUT", "/orders")).block()).isNull();
	}

	@Test
	void directMatchLeavesNothingOnTheExchange() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/reports")
			.accept(MediaType.APPLICATION_JSON));
		List<String> before = new ArrayList<>(exchange.getAttributes().keySet());
		assertThat(resolver.resolve(exchange).block()).isNotNull();
		assertThat(exchange.getAttributes().keySet()).containsExactlyInAnyOrderElementsOf(before);
	}

	@Test
	void escapedPathIsTheSameRoute() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		Mono<IdempotentEndpoint> escaped = resolver.resolve(
				MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.POST, URI.create("/%6Frders"))));
		assertThat(escaped).isInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(escaped.block().route()).isEqualTo("/orders");
	}

	@Test
	void sharedLiteralRouteIsSettledByTheFullLookup() {
		ReactiveIdempotentHandlerResolver resolver = resolver(SharedRoute.class);
		Mono<IdempotentEndpoint> json = resolver.resolve(post("/shared", MediaType.APPLICATION_JSON));
		assertThat(json).isNotInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(json.block().route()).isEqualTo("/shared");
		assertThat(resolver.resolve(post("/shared", MediaType.TEXT_PLAIN)).block()).isNull();
	}

	@Test
	void moreSpecificUnannotatedMappingWinsOverAnnotatedPattern() {
		ReactiveIdempotentHandlerResolver resolver = resolver(PatternRoutes.class);
		assertThat(resolver.resolve(exchange("POST", "/items/42")).block().route()).isEqualTo("/items/{id}");
		assertThat(resolver.resolve(exchange("POST", "/items/special")).block()).isNull();
	}

	@Test
	void functionalRouteAskedFirstWinsOverTheAnnotatedOne() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class, FunctionalOrders.class);
		Mono<IdempotentEndpoint> orders = resolver.resolve(exchange("POST", "/orders"));
		assertThat(orders).isNotInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(orders.block()).isNull();
	}

	@Test
	void functionalRoutesOnOtherPathsLeaveTheAnnotatedOneUnrivalled() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class, FunctionalElsewhere.class);
		Mono<IdempotentEndpoint> orders = resolver.resolve(exchange("POST", "/orders"));
		assertThat(orders).isInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(orders.block().route()).isEqualTo("/orders");
	}

	@Test
	void functionalRoutesThatMayServeThePathAreLeftToTheFullLookup() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class, FunctionalMaybeOrders.class);
		Mono<IdempotentEndpoint> orders = resolver.resolve(exchange("POST", "/orders"));
		assertThat(orders).isNotInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(orders.block().route()).isEqualTo("/orders");
	}

	@Test
	void pathsMatchedRegardlessOfCaseAreLookedUpInFull() {
		ReactiveIdempotentHandlerResolver resolver = resolver(LiteralRoutes.class, CaseInsensitivePaths.class);
		Mono<IdempotentEndpoint> orders = resolver.resolve(exchange("POST", "/ORDERS"));
		assertThat(orders).isNotInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(orders.block().route()).isEqualTo("/orders");
	}

	@Test
	void headAndPreFlightRequestsAreLookedUpInFull() {
		ReactiveIdempotentHandlerResolver resolver = resolver(AnyMethodRoute.class);
		assertThat(resolver.resolve(exchange("POST", "/any"))).isInstanceOf(Fuseable.ScalarCallable.class);
		Mono<IdempotentEndpoint> head = resolver.resolve(exchange("HEAD", "/any"));
		assertThat(head).isNotInstanceOf(Fuseable.ScalarCallable.class);
		assertThat(head.block().route()).isEqualTo("/any");
		MockServerWebExchange preFlight = MockServerWebExchange.from(MockServerHttpRequest.options("/any")
			.header(HttpHeaders.ORIGIN, "https://example.com")
			.header(HttpHeaders.ACCESS_CONTROL_REQUEST_METHOD, "POST"));
		assertThat(resolver.resolve(preFlight)).isNotInstanceOf(Fuseable.ScalarCallable.class);
	}

	private ReactiveIdempotentHandlerResolver resolver(Class<?>... components) {
		this.context = new AnnotationConfigApplicationContext();
		this.context.register(WebConfiguration.class);
		this.context.register(components);
		this.context.refresh();
		List<HandlerMapping> mappings = new ArrayList<>(this.context.getBeansOfType(HandlerMapping.class).values());
		ReactiveIdempotentHandlerResolver resolver = new ReactiveIdempotentHandlerResolver(() -> mappings,
				new EndpointDefaults(Duration.ofMinutes(5), Duration.ofSeconds(30), Duration.ofSeconds(10),
						Idempotent.InProgress.REJECT));
		resolver.afterSingletonsInstantiated();
		return resolver;
	}

	private static ServerWebExchange exchange(String method, String path) {
		return MockServerWebExchange.from(MockServerHttpRequest.method(HttpMethod.valueOf(method), path));
	}

	private static ServerWebExchange post(String path, MediaType contentType) {
		return MockServerWebExchange.from(MockServerHttpRequest.post(path).contentType(contentType));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebFlux
	static class WebConfiguration {

	}

	@RestController
	static class LiteralRoutes {

		@Idempotent
		@PostMapping("/orders")
		String order() {
			return "order";
		}

		@PostMapping("/health")
		String health() {
			return "ok";
		}

		@Idempotent
		@PostMapping(path = "/reports", produces = "application/json")
		String report() {
			return "{}";
		}

	}

	@RestController
	static class PatternRoutes {

		@Idempotent
		@PostMapping("/items/{id}")
		String item() {
			return "item";
		}

		@PostMapping("/items/special")
		String special() {
			return "special";
		}

	}

	@RestController
	static class SharedRoute {

		@Idempotent
		@PostMapping(path = "/shared", consumes = "application/json")
		String json() {
			return "json";
		}

		@PostMapping(path = "/shared", consumes = "text/plain")
		String text() {
			return "text";
		}

	}

	@RestController
	static class AnyMethodRoute {

		@Idempotent
		@RequestMapping(path = "/any", method = { RequestMethod.POST, RequestMethod.GET })
		String any() {
			return "any";
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CaseInsensitivePaths implements WebFluxConfigurer {

		@Override
		public void configurePathMatching(PathMatchConfigurer configurer) {
			configurer.setUseCaseSensitiveMatch(false);
		}

	}

	/** Functional routes on other paths, as the sample gateway's mock provider. */
	@Configuration(proxyBeanMethods = false)
	static class FunctionalElsewhere {

		@Bean
		RouterFunction<ServerResponse> elsewhere() {
			return RouterFunctions.route()
				.POST("/mock/chat", (request) -> ServerResponse.ok().bodyValue("mock"))
				.route(RequestPredicates.path("/a").or(RequestPredicates.path("/b/**")),
						(request) -> ServerResponse.ok().bodyValue("ab"))
				.build();
		}

	}

	/**
	 * Functional routes that could serve the annotated path (they do not, as their conditions fail at
	 * run time): the resolver cannot tell without a request.
	 */
	@Configuration(proxyBeanMethods = false)
	static class FunctionalMaybeOrders {

		@Bean
		RouterFunction<ServerResponse> maybe() {
			return RouterFunctions.route()
				.route(RequestPredicates.path("/elsewhere").or(RequestPredicates.headers((headers) -> false)),
						(request) -> ServerResponse.ok().bodyValue("either"))
				.route(RequestPredicates.path("/elsewhere").negate().and(RequestPredicates.queryParam("never", "x")),
						(request) -> ServerResponse.ok().bodyValue("negated"))
				.build();
		}

	}

	/** A functional route on the annotated one's path: WebFlux asks functional routes first. */
	@Configuration(proxyBeanMethods = false)
	static class FunctionalOrders {

		@Bean
		RouterFunction<ServerResponse> orders() {
			return RouterFunctions.route().POST("/orders", (request) -> ServerResponse.ok().bodyValue("functional")).build();
		}

	}

}
