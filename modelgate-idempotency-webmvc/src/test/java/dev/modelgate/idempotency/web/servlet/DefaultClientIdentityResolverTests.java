package dev.modelgate.idempotency.web.servlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Who a request comes from: its principal, else its hashed identity header, else nobody (with a
 * header configured) or the shared anonymous identity (without one).
 */
class DefaultClientIdentityResolverTests {

	private final DefaultClientIdentityResolver resolver = new DefaultClientIdentityResolver("Authorization");

	@Test
	void principalNameIdentifiesTheClient() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setUserPrincipal(() -> "alice");
		request.addHeader("Authorization", "Bearer k1");
		assertThat(this.resolver.resolve(request)).isEqualTo(DefaultClientIdentityResolver.principalIdentity("alice"));
	}

	@Test
	void headerValueIdentifiesTheClientOnlyByItsHash() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader("Authorization", "Bearer k1");
		assertThat(this.resolver.resolve(request)).isEqualTo(DefaultClientIdentityResolver.headerIdentity("Bearer k1"))
			.doesNotContain("k1");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "\t", "  \t " })
	void blankHeaderValueIdentifiesNobody(String blank) {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader("Authorization", blank);
		assertThat(this.resolver.resolve(request)).isNull();
	}

	@Test
	void missingHeaderIdentifiesNobody() {
		assertThat(this.resolver.resolve(new MockHttpServletRequest())).isNull();
	}

	@Test
	void blankPrincipalNameFallsBackToTheHeader() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.setUserPrincipal(() -> " ");
		assertThat(this.resolver.resolve(request)).isNull();
		request.addHeader("Authorization", "Bearer k1");
		assertThat(this.resolver.resolve(request)).isEqualTo(DefaultClientIdentityResolver.headerIdentity("Bearer k1"));
	}

	@Test
	void withoutIdentityHeaderEveryUnauthenticatedRequestIsAnonymous() {
		MockHttpServletRequest request = new MockHttpServletRequest();
		request.addHeader("Authorization", "Bearer k1");
		assertThat(new DefaultClientIdentityResolver(null).resolve(request))
			.isEqualTo(DefaultClientIdentityResolver.ANONYMOUS);
	}

}
