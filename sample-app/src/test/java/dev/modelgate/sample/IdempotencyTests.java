package dev.modelgate.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Idempotency-Key} on {@code /v1/chat/completions}, handled by the starter's filter around the
 * controller, with the memory store.
 */
class IdempotencyTests extends StubbedProviderTests {

	private static final String KEY = "Idempotency-Key";

	private static final String REPLAYED = "Idempotent-Replayed";

	@Test
	void replaysFirstAnswerWithoutCallingProviderAgain() {
		String key = newKey();
		String request = chatRequest();

		HttpResponse<byte[]> first = this.gateway.chat(request, KEY, key, "Authorization", "Bearer alice");
		HttpResponse<byte[]> retry = this.gateway.chat(request, KEY, key, "Authorization", "Bearer alice");

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(header(first, REPLAYED)).isNull();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(header(retry, REPLAYED)).isEqualTo("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(header(retry, "Content-Type")).startsWith("application/json");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void refusesKeyReusedWithDifferentRequestAsOpenAiError() {
		String key = newKey();

		HttpResponse<byte[]> first = this.gateway.chat(chatRequest(), KEY, key);
		HttpResponse<byte[]> reused = this.gateway.chat(chatRequest(), KEY, key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(header(reused, "Content-Type")).startsWith("application/json");
		JsonNode error = json(reused).path("error");
		assertThat(error.path("code").asString()).isEqualTo("idempotency_key_reused");
		assertThat(error.path("type").asString()).isEqualTo("invalid_request_error");
		assertThat(error.path("message").asString()).isNotBlank();
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void keepsKeysOfDifferentApiKeysApart() {
		String key = newKey();
		String request = chatRequest();

		HttpResponse<byte[]> alice = this.gateway.chat(request, KEY, key, "Authorization", "Bearer alice");
		HttpResponse<byte[]> bob = this.gateway.chat(request, KEY, key, "Authorization", "Bearer bob");

		assertThat(alice.statusCode()).isEqualTo(200);
		assertThat(bob.statusCode()).isEqualTo(200);
		assertThat(header(bob, REPLAYED)).isNull();
		assertThat(bob.body()).isNotEqualTo(alice.body());
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void releasesKeyWhenProviderFailsSoRetryRunsAgain() {
		String key = newKey();
		String request = chatRequest();
		upstream.answerWith(500, "{}");

		HttpResponse<byte[]> failed = this.gateway.chat(request, KEY, key);
		upstream.reset();
		HttpResponse<byte[]> retry = this.gateway.chat(request, KEY, key);

		assertThat(failed.statusCode()).isEqualTo(502);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(header(retry, REPLAYED)).isNull();
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void cacheHitCompletesKeyLikeAnyAnswer() {
		String request = chatRequest("\"temperature\":0");
		this.gateway.chat(request);
		String key = newKey();

		HttpResponse<byte[]> hit = this.gateway.chat(request, KEY, key);
		HttpResponse<byte[]> retry = this.gateway.chat(request, KEY, key);

		assertThat(header(hit, "X-ModelGate-Cache")).isEqualTo("HIT");
		assertThat(header(retry, REPLAYED)).isEqualTo("true");
		assertThat(retry.body()).isEqualTo(hit.body());
		assertThat(upstream.calls()).isEqualTo(1);
	}

}
