package dev.modelgate.idempotency.actuate.endpoint;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.web.servlet.DefaultClientIdentityResolver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Each way of naming the client reaches the scope the filter computed for that client.
 */
class IdempotencyEndpointTests {

	private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

	private final IdempotencyEndpoint endpoint = new IdempotencyEndpoint(this.store, 255);

	@Test
	void principalNameIsTheAuthenticatedClient() {
		String scope = acquire(DefaultClientIdentityResolver.principalIdentity("alice"), "k1");
		assertThat(this.endpoint.lookup("POST", "/orders", "k1", "alice", null, null).scope()).isEqualTo(scope);
		assertThat(this.endpoint.lookup("POST", "/orders", "k1", null, "alice", null)).isNull();
	}

	@Test
	void clientHeaderValueIsHashedLikeTheFilterDoes() {
		String scope = acquire(DefaultClientIdentityResolver.headerIdentity("Bearer abc"), "k2");
		assertThat(this.endpoint.lookup("POST", "/orders", "k2", null, "Bearer abc", null).scope()).isEqualTo(scope);
	}

	@Test
	void identityOfACustomResolverIsUsedAsGiven() {
		String scope = acquire("tenant:42", "k3");
		assertThat(this.endpoint.lookup("post", "/orders", "\"k3\"", null, null, "tenant:42").scope())
			.isEqualTo(scope);
		assertThat(this.endpoint.delete("POST", "/orders", "k3", null, null, "tenant:42").deleted()).isTrue();
		assertThat(this.endpoint.scope(scope)).isNull();
	}

	@Test
	void descriptorsNeverHoldTheKeyOrTheClient() {
		String scope = acquire(DefaultClientIdentityResolver.headerIdentity("Bearer secret"), "secret-key");
		IdempotencyEndpoint.RecordDescriptor record = this.endpoint.scope(scope);
		assertThat(record.toString()).doesNotContain("secret");
		assertThat(record.state()).isEqualTo("in_progress");
	}

	@Test
	void namingTheClientTwiceIsRefused() {
		assertThatExceptionOfType(InvalidEndpointRequestException.class)
			.isThrownBy(() -> this.endpoint.lookup("POST", "/orders", "k", "alice", null, "tenant:42"));
	}

	private String acquire(String identity, String key) {
		String scope = IdempotencyScope.of(identity, "POST", "/orders", IdempotencyKey.parse(List.of(key), 255))
			.hash();
		this.store.begin(scope, "fp", "token", Duration.ofMinutes(1));
		return scope;
	}

}
