package dev.modelgate.consumers.security;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The idempotency filter runs after Spring Security's filter chain, over real HTTP with HTTP Basic:
 * the authenticated principal keys the scope (the same key from two users is two records and two
 * runs), a retry by the same user is replayed, and a request Security refuses (no credentials, a wrong
 * password) gets Security's 401 while the handler and the store see nothing (no key is begun).
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SecurityOrderingTests {

	private static final String ORDER = "{\"item\":\"book\"}";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private CountingStore store;

	@Autowired
	private IdempotencyFilter filter;

	@BeforeEach
	void clearTheStore() {
		this.store.clear();
		this.store.begins.set(0);
	}

	@Test
	void theIdempotencyFilterIsOrderedAfterSpringSecurity() {
		assertThat(this.filter.getOrder()).isEqualTo(IdempotencyFilter.DEFAULT_ORDER)
			.isGreaterThan(SecurityFilterProperties.DEFAULT_FILTER_ORDER);
	}

	@Test
	void theSameKeyFromTwoUsersIsTwoRecordsAndTwoRuns() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<String> alice = post(key, "alice", "alice-secret");
		HttpResponse<String> bob = post(key, "bob", "bob-secret");

		assertThat(alice.statusCode()).as(alice.body()).isEqualTo(201);
		assertThat(bob.statusCode()).as(bob.body()).isEqualTo(201);
		assertThat(alice.body()).startsWith("alice ");
		assertThat(bob.body()).startsWith("bob ");
		assertThat(bob.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.orders.invocations() - before).isEqualTo(2);
		assertThat(this.store.size()).isEqualTo(2);
	}

	@Test
	void aRetryByTheSameUserIsReplayed() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<String> first = post(key, "alice", "alice-secret");
		HttpResponse<String> retry = post(key, "alice", "alice-secret");

		assertThat(first.statusCode()).as(first.body()).isEqualTo(201);
		assertThat(retry.statusCode()).isEqualTo(201);
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(retry.headers().allValues("Idempotent-Replayed")).containsExactly("true");
		assertThat(this.orders.invocations() - before).isEqualTo(1);
		assertThat(this.store.size()).isEqualTo(1);
	}

	@Test
	void aRequestWithoutCredentialsGetsSecuritys401AndNeverReachesTheStore() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<String> refused = post(key, null, null);

		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
				(challenge) -> assertThat(challenge).startsWith("Basic"));
		assertThat(this.orders.invocations()).isEqualTo(before);
		assertThat(this.store.begins).hasValue(0);
		assertThat(this.store.size()).isZero();
	}

	@Test
	void aRequestWithAWrongPasswordGetsSecuritys401AndNeverReachesTheStore() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.orders.invocations();

		HttpResponse<String> refused = post(key, "alice", "wrong");

		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(this.orders.invocations()).isEqualTo(before);
		assertThat(this.store.begins).hasValue(0);
		assertThat(this.store.size()).isZero();

		// The key is still free for the user once the credentials are right.
		HttpResponse<String> accepted = post(key, "alice", "alice-secret");
		assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(201);
		assertThat(accepted.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.orders.invocations() - before).isEqualTo(1);
	}

	private HttpResponse<String> post(String key, String user, String password) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + this.port + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(ORDER));
		if (user != null) {
			String credentials = user + ":" + password;
			request.header("Authorization",
					"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}
		return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class CountingStoreConfiguration {

		@Bean
		CountingStore countingStore() {
			return new CountingStore();
		}

	}

	/** The memory store, counting how often a key is begun. */
	static class CountingStore extends InMemoryIdempotencyStore {

		final AtomicInteger begins = new AtomicInteger();

		@Override
		public synchronized BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			this.begins.incrementAndGet();
			return super.begin(scope, fingerprint, token, leaseTtl);
		}

	}

}
