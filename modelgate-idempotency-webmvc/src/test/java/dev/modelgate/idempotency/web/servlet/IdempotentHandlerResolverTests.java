package dev.modelgate.idempotency.web.servlet;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockServletContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.Idempotent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Which handler a request is bound for: the allocation-free pre-check that lets other requests go,
 * and resolution, direct for an annotated route no other mapping shares and full otherwise.
 */
class IdempotentHandlerResolverTests {

	private AnnotationConfigWebApplicationContext context;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void withoutAnnotatedHandlersNothingIsIdempotent() throws Exception {
		IdempotentHandlerResolver resolver = resolver(UnannotatedRoutes.class);
		assertThat(resolver.hasIdempotentHandlers()).isFalse();
		assertThat(resolver.resolve(request("POST", "/orders"))).isNull();
	}

	@Test
	void resolvesALiteralRouteWithItsPattern() throws Exception {
		IdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		IdempotentEndpoint endpoint = resolver.resolve(request("POST", "/orders"));
		assertThat(endpoint).isNotNull();
		assertThat(endpoint.route()).isEqualTo("/orders");
		assertThat(endpoint.ttl()).isEqualTo(Duration.ofMinutes(5));
		assertThat(resolver.resolve(request("POST", "/health"))).isNull();
	}

	@Test
	void resolvesEscapedPathToTheSameRoute() throws Exception {
		IdempotentHandlerResolver resolver = resolver(LiteralRoutes.class);
		assertThat(resolver.resolve(request("POST", "/%6Frders")).route()).isEqualTo("/orders");
	}

	@Test
	void sharedLiteralRouteIsSettledByFullResolution() throws Exception {
		IdempotentHandlerResolver resolver = resolver(SharedRoute.class);
		MockHttpServletRequest json = request("POST", "/shared");
		json.setContentType("application/json");
		MockHttpServletRequest text = request("POST", "/shared");
		text.setContentType("text/plain");
		assertThat(resolver.resolve(json).route()).isEqualTo("/shared");
		assertThat(resolver.resolve(text)).isNull();
	}

	@Test
	void moreSpecificUnannotatedMappingWinsOverAnnotatedPattern() throws Exception {
		IdempotentHandlerResolver resolver = resolver(PatternRoutes.class);
		assertThat(resolver.resolve(request("POST", "/items/42")).route()).isEqualTo("/items/{id}");
		assertThat(resolver.resolve(request("POST", "/items/special"))).isNull();
	}

	@Test
	void knowsWhetherAnyHandlerRequiresAKey() {
		assertThat(resolver(LiteralRoutes.class).hasKeyRequiredHandlers()).isFalse();
		this.context.close();
		assertThat(resolver(RequiredKeyRoute.class).hasKeyRequiredHandlers()).isTrue();
	}

	@Test
	void endpointThatLeavesInProgressToTheDefaultFollowsTheGlobalSetting() throws Exception {
		IdempotentHandlerResolver rejecting = resolver(InProgressRoutes.class, Idempotent.InProgress.REJECT);
		assertThat(rejecting.resolve(request("POST", "/default")).waitTimeout()).isZero();
		this.context.close();
		IdempotentHandlerResolver waiting = resolver(InProgressRoutes.class, Idempotent.InProgress.WAIT);
		assertThat(waiting.resolve(request("POST", "/default")).waitTimeout()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void endpointThatSaysRejectOrWaitOverridesTheGlobalSetting() throws Exception {
		IdempotentHandlerResolver waiting = resolver(InProgressRoutes.class, Idempotent.InProgress.WAIT);
		assertThat(waiting.resolve(request("POST", "/reject")).waitTimeout()).isZero();
		this.context.close();
		IdempotentHandlerResolver rejecting = resolver(InProgressRoutes.class, Idempotent.InProgress.REJECT);
		assertThat(rejecting.resolve(request("POST", "/wait")).waitTimeout()).isEqualTo(Duration.ofSeconds(10));
	}

	@Test
	void globalInProgressIsRejectOrWait() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new EndpointDefaults(Duration.ofMinutes(5), Duration.ofSeconds(30),
					Duration.ofSeconds(10), Idempotent.InProgress.DEFAULT));
	}

	@Test
	void invalidAnnotationFailsNamingTheHandlerMethodAndWhatItTakes() {
		assertThatIllegalStateException().isThrownBy(() -> resolver(NegativeLeaseRoute.class))
			.withMessage("@Idempotent on " + NegativeLeaseRoute.class.getName() + "#order(String): leaseTtl must be "
					+ "positive, was '-5s': write a positive duration such as 30s, 24h or PT5M, or leave it empty "
					+ "for the global setting");
	}

	private IdempotentHandlerResolver resolver(Class<?> controller) {
		return resolver(controller, Idempotent.InProgress.REJECT);
	}

	private IdempotentHandlerResolver resolver(Class<?> controller, Idempotent.InProgress inProgress) {
		this.context = new AnnotationConfigWebApplicationContext();
		this.context.setServletContext(new MockServletContext());
		this.context.register(WebConfiguration.class, controller);
		this.context.refresh();
		RequestMappingHandlerMapping handlerMapping = this.context.getBean(RequestMappingHandlerMapping.class);
		IdempotentHandlerResolver resolver = new IdempotentHandlerResolver(() -> handlerMapping,
				new EndpointDefaults(Duration.ofMinutes(5), Duration.ofSeconds(30),
						Duration.ofSeconds(10), inProgress));
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
	static class UnannotatedRoutes {

		@PostMapping("/orders")
		String order() {
			return "order";
		}

		@GetMapping("/health")
		String health() {
			return "ok";
		}

	}

	@RestController
	static class RequiredKeyRoute {

		@Idempotent(required = true)
		@PostMapping("/orders")
		String order() {
			return "order";
		}

	}

	@RestController
	static class InProgressRoutes {

		@Idempotent
		@PostMapping("/default")
		String byDefault() {
			return "default";
		}

		@Idempotent(inProgress = Idempotent.InProgress.REJECT)
		@PostMapping("/reject")
		String reject() {
			return "reject";
		}

		@Idempotent(inProgress = Idempotent.InProgress.WAIT)
		@PostMapping("/wait")
		String waiting() {
			return "wait";
		}

	}

	@RestController
	static class NegativeLeaseRoute {

		@Idempotent(leaseTtl = "-5s")
		@PostMapping("/orders")
		String order(@RequestBody String body) {
			return "order";
		}

	}

}
