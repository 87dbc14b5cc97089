package dev.modelgate.idempotency.web.internal;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** How every stack's default resolver names a client. */
class ClientIdentitiesTests {

	@Test
	void principalComesFirstThenTheHashedHeader() {
		assertThat(ClientIdentities.of("alice", "Authorization", List.of("Bearer x"))).isEqualTo("principal:alice");
		assertThat(ClientIdentities.of(null, "Authorization", List.of("Bearer x")))
			.startsWith("header:")
			.doesNotContain("Bearer")
			.hasSize("header:".length() + 64);
	}

	@Test
	void blankValuesIdentifyNobody() {
		assertThat(ClientIdentities.of(" ", "Authorization", List.of(" "))).isNull();
		assertThat(ClientIdentities.of(null, "Authorization", List.of())).isNull();
	}

	@Test
	void withoutAnIdentityHeaderEveryoneUnauthenticatedSharesTheAnonymousScope() {
		assertThat(ClientIdentities.of(null, null, List.of())).isEqualTo(ClientIdentities.ANONYMOUS);
	}

	@Test
	void identityHeaderSentTwiceIsAmbiguousNeverItsFirstValue() {
		assertThatExceptionOfType(AmbiguousClientIdentityException.class)
			.isThrownBy(() -> ClientIdentities.of(null, "X-Tenant", List.of("A", "B")))
			.satisfies((ex) -> assertThat(ex.getIdentityHeader()).isEqualTo("X-Tenant"));
		assertThat(ClientIdentities.of("alice", "X-Tenant", List.of("A", "B"))).as("the principal decides")
			.isEqualTo("principal:alice");
	}

	@Test
	void valuesDifferingInCaseOrInnerWhiteSpaceAreDifferentClients() {
		assertThat(ClientIdentities.of(null, "X-Tenant", List.of("acme")))
			.isNotEqualTo(ClientIdentities.of(null, "X-Tenant", List.of("ACME")))
			.isNotEqualTo(ClientIdentities.of(null, "X-Tenant", List.of("ac me")));
	}

}
