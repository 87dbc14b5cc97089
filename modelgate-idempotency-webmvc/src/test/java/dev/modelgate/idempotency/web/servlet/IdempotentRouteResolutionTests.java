package dev.modelgate.idempotency.web.servlet;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerResponse;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.Idempotent;

import static dev.modelgate.idempotency.web.servlet.IdempotentRoute.idempotent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.springframework.web.servlet.function.RouterFunctions.route;

/**
 * Routes idempotent without an annotation: declared by configuration, or functional routes carrying
 * the {@link IdempotentRoute} attribute; which one a request is bound for, and the pre-check that
 * lets every other request go.
 */
class IdempotentRouteResolutionTests {

	private AnnotationConfigWebApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void declaredRouteCoversAnUnannotatedControllerWithTheDeclaredPatternAsRoute() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(DeclaredRoute.of("post", "/plain/{id}",
				idempotent().ttl(Duration.ofHours(1)))), PlainController.class);
		IdempotentEndpoint endpoint = resolver.resolve(request("POST", "/plain/7"));
		assertThat(endpoint).isNotNull();
		assertThat(endpoint.route()).isEqualTo("/plain/{id}");
		assertThat(endpoint.scopeName()).isEqualTo("/plain/{id}");
		assertThat(endpoint.ttl()).isEqualTo(Duration.ofHours(1));
		assertThat(endpoint.leaseTtl()).isEqualTo(Duration.ofSeconds(30));
		assertThat(resolver.resolve(request("GET", "/plain/7"))).isNull();
		assertThat(resolver.resolve(request("POST", "/plain/7/more"))).isNull();
	}

	@Test
	void declaredRouteCoversAPathNoHandlerServes() throws Exception {
		IdempotentHandlerResolver resolver = resolver(
				List.of(DeclaredRoute.of("POST", "/v1/chat/completions", idempotent().scope("chat").required(true))));
		IdempotentEndpoint endpoint = resolver.resolve(request("POST", "/v1/chat/completions"));
		assertThat(endpoint.route()).isEqualTo("/v1/chat/completions");
		assertThat(endpoint.scopeName()).isEqualTo("chat");
		assertThat(resolver.hasKeyRequiredHandlers()).isTrue();
		assertThat(resolver.hasIdempotentHandlers()).isTrue();
	}

	@Test
	void aDeclaredRouteMatchesItsMethodAndPatternOnly() throws Exception {
		IdempotentHandlerResolver resolver = resolver(
				List.of(DeclaredRoute.of("POST", "/{tenant}/orders/{id}", idempotent())));
		assertThat(resolver.resolve(request("POST", "/acme/orders/1")).route()).isEqualTo("/{tenant}/orders/{id}");
		assertThat(resolver.resolve(request("POST", "/acme/%6Frders/1")).route()).isEqualTo("/{tenant}/orders/{id}");
		assertThat(resolver.resolve(request("GET", "/acme/orders/1"))).isNull();
		assertThat(resolver.resolve(request("POST", "/acme/invoices/1"))).isNull();
		assertThat(resolver.hasKeyRequiredHandlers()).isFalse();
	}

	@Test
	void withoutRoutesNothingIsIdempotent() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(), PlainController.class, UnmarkedRoutes.class);
		assertThat(resolver.hasIdempotentHandlers()).isFalse();
		assertThat(resolver.resolve(request("POST", "/plain/1"))).isNull();
		assertThat(resolver.resolve(request("POST", "/fn/unmarked"))).isNull();
	}

	@Test
	void annotatedHandlerWinsOverADeclaredRoute() throws Exception {
		IdempotentHandlerResolver resolver = resolver(
				List.of(DeclaredRoute.of("POST", "/annotated", idempotent().ttl(Duration.ofHours(1)))),
				AnnotatedController.class);
		IdempotentEndpoint endpoint = resolver.resolve(request("POST", "/annotated"));
		assertThat(endpoint.ttl()).isEqualTo(Duration.ofMinutes(5));
		assertThat(endpoint.onStoreFailure()).isEqualTo(Idempotent.StoreFailure.PROCEED);
	}

	@Test
	void firstMatchingDeclaredRouteApplies() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(
				DeclaredRoute.of("POST", "/v1/special", idempotent().scope("special")),
				DeclaredRoute.of("POST", "/v1/**", idempotent())));
		assertThat(resolver.resolve(request("POST", "/v1/special")).scopeName()).isEqualTo("special");
		assertThat(resolver.resolve(request("POST", "/v1/other")).route()).isEqualTo("/v1/**");
	}

	@Test
	void functionalRouteWithTheAttributeIsResolvedWithItsPattern() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(), MarkedRoutes.class);
		IdempotentEndpoint endpoint = resolver.resolve(request("POST", "/fn/orders/3"));
		assertThat(endpoint).isNotNull();
		assertThat(endpoint.route()).isEqualTo("/fn/orders/{id}");
		assertThat(endpoint.required()).isTrue();
		assertThat(endpoint.waitTimeout()).isEqualTo(Duration.ofSeconds(10));
		assertThat(resolver.hasKeyRequiredHandlers()).isTrue();
		assertThat(resolver.resolve(request("POST", "/fn/unmarked"))).isNull();
		assertThat(resolver.resolve(request("GET", "/fn/orders/3"))).isNull();
		assertThat(resolver.resolve(request("POST", "/elsewhere"))).isNull();
	}

	@Test
	void attributeOnANestAppliesToItsRoutesWithTheCombinedPattern() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(), MarkedRoutes.class);
		IdempotentEndpoint endpoint = resolver.resolve(request("PUT", "/fn/nested/items/9"));
		assertThat(endpoint.route()).isEqualTo("/fn/nested/items/{id}");
		assertThat(endpoint.scopeName()).isEqualTo("nested");
	}

	@Test
	void filteredFunctionalRouteIsStillFound() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(), MarkedRoutes.class);
		assertThat(resolver.resolve(request("POST", "/fn/filtered")).route()).isEqualTo("/fn/filtered");
	}

	@Test
	void declaredRouteCoversAnUnmarkedFunctionalRoute() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(DeclaredRoute.of("POST", "/fn/unmarked", idempotent())),
				UnmarkedRoutes.class);
		assertThat(resolver.resolve(request("POST", "/fn/unmarked")).route()).isEqualTo("/fn/unmarked");
	}

	@Test
	void markedPathServedByAnEarlierHandlerMappingIsNotTheFunctionalRoute() throws Exception {
		IdempotentHandlerResolver resolver = resolver(List.of(), MarkedRoutes.class, ShadowingMapping.class);
		assertThat(resolver.resolve(request("POST", "/fn/filtered"))).isNull();
	}

	@Test
	void markedAndUnmarkedRoutesThatCannotBeToldApartFailStartUp() {
		assertThatIllegalStateException().isThrownBy(() -> resolver(List.of(), AmbiguousRoutes.class))
			.withMessageContaining("share a method and a path pattern, so the filter cannot tell which one");
	}

	@Test
	void markedRouteWithoutAPathFailsStartUp() {
		assertThatIllegalStateException().isThrownBy(() -> resolver(List.of(), PathlessRoute.class))
			.withMessageContaining("has no path pattern");
	}

	@Test
	void declarationsThatCannotWorkAreRefusedNamingWhatIsWrong() {
		assertThatIllegalArgumentException().isThrownBy(() -> DeclaredRoute.of("FETCH", "/orders", idempotent()))
			.withMessageContaining("'FETCH' is not an HTTP method");
		assertThatIllegalArgumentException().isThrownBy(() -> DeclaredRoute.of("POST", "orders", idempotent()))
			.withMessageContaining("must start with /");
		assertThatIllegalArgumentException().isThrownBy(() -> DeclaredRoute.of("POST", "/orders/{id", idempotent()))
			.withMessageContaining("'/orders/{id' is not a path pattern");
		assertThatIllegalArgumentException().isThrownBy(() -> idempotent().ttl(Duration.ofSeconds(-1)))
			.withMessageContaining("ttl must be a positive duration");
		assertThatIllegalArgumentException().isThrownBy(() -> idempotent().ignoreFields("no-slash"))
			.withMessageContaining("is not a JSON Pointer");
	}

	private IdempotentHandlerResolver resolver(List<DeclaredRoute> routes, Class<?>... components) {
		this.context = new AnnotationConfigWebApplicationContext();
		this.context.setServletContext(new MockServletContext());
		this.context.register(WebConfiguration.class);
		if (components.length > 0) {
			this.context.register(components);
		}
		this.context.refresh();
		RequestMappingHandlerMapping handlerMapping = this.context.getBean(RequestMappingHandlerMapping.class);
		IdempotentHandlerResolver resolver = new IdempotentHandlerResolver(() -> handlerMapping,
				new EndpointDefaults(Duration.ofMinutes(5), Duration.ofSeconds(30),
						Duration.ofSeconds(10), Idempotent.InProgress.WAIT));
		resolver.setDeclaredRoutes(routes);
		resolver.setHandlerMappings(
				() -> this.context.getBeanProvider(HandlerMapping.class).orderedStream().toList());
		resolver.afterSingletonsInstantiated();
		return resolver;
	}

	private static MockHttpServletRequest request(String method, String path) {
		return new MockHttpServletRequest(method, path);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class WebConfiguration {

	}

	@RestController
	static class PlainController {

		@PostMapping("/plain/{id}")
		String plain() {
			return "plain";
		}

	}

	@RestController
	static class AnnotatedController {

		@Idempotent(onStoreFailure = Idempotent.StoreFailure.PROCEED)
		@PostMapping("/annotated")
		String annotated() {
			return "annotated";
		}

	}

	/** A handler mapping ahead of RouterFunctionMapping that serves one of its paths. */
	@Configuration(proxyBeanMethods = false)
	static class ShadowingMapping {

		@Bean
		SimpleUrlHandlerMapping shadowingMapping() {
			HttpRequestHandler shadow = (request, response) -> response.getWriter().write("shadow");
			return new SimpleUrlHandlerMapping(Map.of("/fn/filtered", shadow), Ordered.HIGHEST_PRECEDENCE);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class MarkedRoutes {

		@Bean
		RouterFunction<ServerResponse> markedRoutes() {
			return route().POST("/fn/orders/{id}", (request) -> ServerResponse.ok().body("order"))
				.withAttributes(idempotent().required(true).inProgress(Idempotent.InProgress.WAIT))
				.POST("/fn/unmarked", (request) -> ServerResponse.ok().body("unmarked"))
				.GET("/fn/orders/{id}", (request) -> ServerResponse.ok().body("read"))
				.path("/fn/nested", (nested) -> nested.PUT("/items/{id}", (request) -> ServerResponse.ok().body("item")))
				.withAttributes(idempotent().scope("nested"))
				.build()
				.and(route().POST("/fn/filtered", (request) -> ServerResponse.ok().body("filtered"))
					.withAttributes(idempotent())
					.filter((request, next) -> next.handle(request))
					.build());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UnmarkedRoutes {

		@Bean
		RouterFunction<ServerResponse> unmarkedRoutes() {
			return route().POST("/fn/unmarked", (request) -> ServerResponse.ok().body("unmarked")).build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class AmbiguousRoutes {

		@Bean
		RouterFunction<ServerResponse> ambiguousRoutes() {
			return route().POST("/fn/same", (request) -> ServerResponse.ok().body("marked"))
				.withAttributes(idempotent())
				.POST("/fn/same", (request) -> ServerResponse.ok().body("unmarked"))
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PathlessRoute {

		@Bean
		RouterFunction<ServerResponse> pathlessRoute() {
			return route().route((request) -> true, (request) -> ServerResponse.ok().body("any"))
				.withAttributes(idempotent())
				.build();
		}

	}

}
