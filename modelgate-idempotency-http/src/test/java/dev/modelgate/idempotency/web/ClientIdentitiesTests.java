package dev.modelgate.idempotency.web;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How every stack's default resolver names a client. */
class ClientIdentitiesTests {

	@Test
	void principalComesFirstThenTheHashedHeader() {
		assertThat(ClientIdentities.of("alice", "Authorization", "Bearer x")).isEqualTo("principal:alice");
		assertThat(ClientIdentities.of(null, "Authorization", "Bearer x"))
			.startsWith("header:")
			.doesNotContain("Bearer")
			.hasSize("header:".length() + 64);
	}

	@Test
	void blankValuesIdentifyNobody() {
		assertThat(ClientIdentities.of(" ", "Authorization", " ")).isNull();
		assertThat(ClientIdentities.of(null, "Authorization", null)).isNull();
	}

	@Test
	void withoutAnIdentityHeaderEveryoneUnauthenticatedSharesTheAnonymousScope() {
		assertThat(ClientIdentities.of(null, null, null)).isEqualTo(ClientIdentities.ANONYMOUS);
	}

}
