package dev.modelgate.idempotency.core;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scope: client identity, method, route and key, kept only as a SHA-256 so that neither the key
 * nor the client identity reaches the store (contract, section 4).
 */
class IdempotencyScopeTests {

	@Test
	void sameInputsGiveSameLowerCaseHexHash() {
		IdempotencyScope first = scope("client", "POST", "/orders", "key-1");
		IdempotencyScope second = scope("client", "POST", "/orders", "key-1");
		assertThat(first.hash()).matches("[0-9a-f]{64}").isEqualTo(second.hash());
		assertThat(first).isEqualTo(second).hasSameHashCodeAs(second);
	}

	@Test
	void clientIdentityChangesTheScope() {
		assertThat(scope("alice", "POST", "/orders", "k").hash())
			.isNotEqualTo(scope("bob", "POST", "/orders", "k").hash());
	}

	@Test
	void methodChangesTheScope() {
		assertThat(scope("c", "POST", "/orders", "k").hash()).isNotEqualTo(scope("c", "PUT", "/orders", "k").hash());
	}

	@Test
	void routeChangesTheScope() {
		assertThat(scope("c", "POST", "/orders", "k").hash())
			.isNotEqualTo(scope("c", "POST", "/orders/{id}", "k").hash());
	}

	@Test
	void keyChangesTheScope() {
		assertThat(scope("c", "POST", "/orders", "k1").hash()).isNotEqualTo(scope("c", "POST", "/orders", "k2").hash());
	}

	@Test
	void fieldBoundariesAreUnambiguous() {
		assertThat(scope("ab", "c", "/r", "k").hash()).isNotEqualTo(scope("a", "bc", "/r", "k").hash());
		assertThat(scope("c", "POST", "/ab", "c").hash()).isNotEqualTo(scope("c", "POST", "/a", "bc").hash());
		assertThat(scope("", "POST", "/r", "k").hash()).isNotEqualTo(scope("POST", "", "/r", "k").hash());
	}

	@Test
	void hashNeverContainsTheRawKeyOrIdentity() {
		String key = "deadbeefcafe";
		String identity = "0123456789abcdef";
		IdempotencyScope scope = scope(identity, "POST", "/orders", key);
		assertThat(scope.hash()).doesNotContain(key).doesNotContain(identity);
		assertThat(scope.toString()).isEqualTo(scope.hash());
	}

	@Test
	void ofHashRebuildsTheSameScope() {
		IdempotencyScope scope = scope("c", "POST", "/orders", "k");
		assertThat(IdempotencyScope.ofHash(scope.hash())).isEqualTo(scope);
	}

	private static IdempotencyScope scope(String identity, String method, String route, String key) {
		return IdempotencyScope.of(identity, method, route, IdempotencyKey.parse(List.of(key), 255));
	}

}
