package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.newKey;
import static dev.modelgate.sample.GatewayClient.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A key's whole life on {@code /v1/chat/completions}, asked from outside at each age through the
 * status resource and by retries: running (202), completed (the replay), spent after {@code ttl} (410,
 * the provider not called again), free after {@code spent-key-retention} (the request runs again).
 * Each store runs it in a subclass.
 */
@TestPropertySource(properties = { "modelgate.idempotency.ttl=3s", "modelgate.idempotency.spent-key-retention=4s" })
abstract class KeyLifetimeTests extends StubbedProviderTests {

	private static final String KEY = "Idempotency-Key";

	private static final String ALICE = "Bearer sk-alice";

	private static String errorCode(HttpResponse<byte[]> response) {
		return json(response).path("error").path("code").asString();
	}

	@Test
	void statusAndRetriesFollowTheKeyFromRunningToSpentToFree() throws Exception {
		String key = newKey();
		String request = chatRequest();
		CountDownLatch release = upstream.holdAnswers();
		CompletableFuture<HttpResponse<byte[]>> first = CompletableFuture
			.supplyAsync(() -> this.gateway.chat(request, KEY, key, "Authorization", ALICE));
		await("the provider to be called").atMost(Duration.ofSeconds(10)).until(() -> upstream.calls() == 1);

		HttpResponse<byte[]> duplicate = this.gateway.chat(request, KEY, key, "Authorization", ALICE);
		assertThat(duplicate.statusCode()).as(text(duplicate)).isEqualTo(409);
		assertThat(errorCode(duplicate)).isEqualTo("idempotency_request_in_progress");
		String location = header(duplicate, "Location");
		assertThat(location).matches("/idempotency-status/[A-Za-z0-9_-]+");
		HttpResponse<byte[]> running = this.gateway.get(location, KEY, key, "Authorization", ALICE);
		HttpResponse<byte[]> otherClient = this.gateway.get(location, KEY, key, "Authorization", "Bearer sk-mallory");
		assertThat(running.statusCode()).as(text(running)).isEqualTo(202);
		assertThat(header(running, "Retry-After")).isNotNull();
		assertThat(otherClient.statusCode()).as(text(otherClient)).isEqualTo(404);
		assertThat(errorCode(otherClient)).isEqualTo("idempotency_key_unknown");

		release.countDown();
		HttpResponse<byte[]> answered = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> completed = this.gateway.get(location, KEY, key, "Authorization", ALICE);
		assertThat(answered.statusCode()).isEqualTo(200);
		assertThat(completed.statusCode()).as(text(completed)).isEqualTo(200);
		assertThat(completed.body()).isEqualTo(answered.body());
		assertThat(header(completed, "Idempotent-Replayed")).isEqualTo("true");

		HttpResponse<byte[]> spent = await("the answer to expire after ttl (3s)").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.gateway.get(location, KEY, key, "Authorization", ALICE),
					(response) -> response.statusCode() != 200);
		HttpResponse<byte[]> lateRetry = this.gateway.chat(request, KEY, key, "Authorization", ALICE);
		assertThat(spent.statusCode()).as(text(spent)).isEqualTo(410);
		assertThat(errorCode(spent)).isEqualTo("idempotency_key_spent");
		assertThat(lateRetry.statusCode()).as(text(lateRetry)).isEqualTo(410);
		assertThat(errorCode(lateRetry)).isEqualTo("idempotency_key_spent");
		assertThat(upstream.calls()).isEqualTo(1);

		await("the key to be free after spent-key-retention (4s)").atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> this.gateway.get(location, KEY, key, "Authorization", ALICE).statusCode() == 404);
		HttpResponse<byte[]> afterRetention = this.gateway.chat(request, KEY, key, "Authorization", ALICE);
		assertThat(afterRetention.statusCode()).isEqualTo(200);
		assertThat(header(afterRetention, "Idempotent-Replayed")).isNull();
		assertThat(upstream.calls()).isEqualTo(2);
	}

}
