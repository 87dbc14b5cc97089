package dev.modelgate.idempotency.web.reactive;

import java.security.Principal;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/** The principal first, else the hashed identity header, spelled as the servlet resolver spells them. */
class DefaultReactiveClientIdentityResolverTests {

	private final DefaultReactiveClientIdentityResolver resolver = new DefaultReactiveClientIdentityResolver(
			"Authorization");

	@Test
	void authenticatedPrincipalIsTheIdentity() {
		ServerWebExchange exchange = withPrincipal(
				MockServerWebExchange.from(MockServerHttpRequest.post("/").header("Authorization", "Bearer a")), "alice");
		assertThat(this.resolver.resolve(exchange).block()).isEqualTo("principal:alice");
	}

	@Test
	void withoutPrincipalTheHeaderIsHashed() {
		ServerWebExchange exchange = MockServerWebExchange
			.from(MockServerHttpRequest.post("/").header("Authorization", "Bearer a"));
		// SHA-256 of "Bearer a", so the raw value is never part of the scope.
		assertThat(this.resolver.resolve(exchange).block()).startsWith("header:")
			.doesNotContain("Bearer")
			.hasSize("header:".length() + 64);
	}

	@Test
	void blankPrincipalNameFallsBackToTheHeaderAndBlankHeaderIdentifiesNobody() {
		ServerWebExchange blankPrincipal = withPrincipal(
				MockServerWebExchange.from(MockServerHttpRequest.post("/").header("Authorization", " ")), " ");
		assertThat(this.resolver.resolve(blankPrincipal).blockOptional()).isEmpty();
	}

	@Test
	void withoutIdentityHeaderEveryoneUnauthenticatedIsAnonymous() {
		ServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.post("/"));
		assertThat(new DefaultReactiveClientIdentityResolver(null).resolve(exchange).block())
			.isEqualTo(DefaultReactiveClientIdentityResolver.ANONYMOUS);
	}

	private static ServerWebExchange withPrincipal(ServerWebExchange exchange, String name) {
		Principal principal = () -> name;
		return exchange.mutate().principal(Mono.just(principal)).build();
	}

}
