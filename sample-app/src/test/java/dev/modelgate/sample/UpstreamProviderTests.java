package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The gateway in front of a real (stubbed) OpenAI-compatible provider.
 */
class UpstreamProviderTests extends StubbedProviderTests {

	@Test
	void forwardsRequestWithProviderKeyAndPassesAnswerThroughUntouched() {
		String request = chatRequest("\"user\":\"end-user-42\"", "\"x_unknown\":{\"kept\":true}");

		HttpResponse<byte[]> response = this.gateway.chat(request, "Authorization", "Bearer client-key");

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(text(response)).startsWith("{\"id\":\"chatcmpl-stub-1\"");
		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().authorization()).isEqualTo("Bearer test-provider-key");
		JsonNode forwarded = JsonMapper.shared().readTree(upstream.lastCall().body());
		assertThat(forwarded).isEqualTo(JsonMapper.shared().readTree(request));
	}

	@Test
	void forwardsAKeyDerivedFromTheRequestTheSameWhenItRunsAgainAndNeverTheClientsKey() {
		String key = UUID.randomUUID().toString();
		String otherKey = UUID.randomUUID().toString();
		String request = chatRequest();
		upstream.answerWith(500, "{}");

		assertThat(this.gateway.chat(request, "Idempotency-Key", key).statusCode()).isEqualTo(502);
		String failedRunsKey = upstream.lastCall().idempotencyKey();
		upstream.reset();
		assertThat(this.gateway.chat(request, "Idempotency-Key", key).statusCode()).isEqualTo(200);
		String retrysKey = upstream.lastCall().idempotencyKey();
		assertThat(header(this.gateway.chat(request, "Idempotency-Key", key), "Idempotent-Replayed")).isEqualTo("true");
		this.gateway.chat(request, "Idempotency-Key", otherKey);
		String otherKeysKey = upstream.lastCall().idempotencyKey();
		this.gateway.chat(request);

		assertThat(failedRunsKey).isNotNull().isNotEqualTo(key).isEqualTo(retrysKey);
		assertThat(otherKeysKey).isNotNull().isNotEqualTo(otherKey).isNotEqualTo(retrysKey);
		// The mock provider's count per key: one call each (the replay made none), none for the unkeyed request.
		assertThat(upstream.callsByKey()).containsExactly(entry(retrysKey, 1), entry(otherKeysKey, 1), entry("none", 1));
	}

	@Test
	void passesThroughUpstream400WithItsBody() {
		String body = "{\"error\":{\"message\":\"Unknown model\",\"type\":\"invalid_request_error\",\"code\":\"model_not_found\"}}";
		upstream.answerWith(400, body);

		HttpResponse<byte[]> response = this.gateway.chat(chatRequest());

		assertThat(response.statusCode()).isEqualTo(400);
		assertThat(text(response)).isEqualTo(body);
		assertThat(header(response, "Content-Type")).startsWith("application/json");
	}

	@Test
	void passesThroughUpstream429WithItsBodyAndRetryAfter() {
		String body = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}";
		upstream.answerWith(429, body, "Retry-After", "7");

		HttpResponse<byte[]> response = this.gateway.chat(chatRequest());

		assertThat(response.statusCode()).isEqualTo(429);
		assertThat(text(response)).isEqualTo(body);
		assertThat(header(response, "Retry-After")).isEqualTo("7");
	}

	@Test
	void turnsUpstream500Into502OpenAiError() {
		upstream.answerWith(500, "{\"error\":{\"message\":\"internal details\"}}");

		HttpResponse<byte[]> response = this.gateway.chat(chatRequest());

		assertThat(response.statusCode()).isEqualTo(502);
		assertThat(header(response, "Content-Type")).startsWith("application/json");
		JsonNode error = json(response).path("error");
		assertThat(error.path("type").asString()).isEqualTo("upstream_error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_server_error");
		assertThat(error.path("message").asString()).doesNotContain("internal details");
	}

	@Test
	void turnsUpstreamTimeoutInto502OpenAiError() {
		upstream.delayAnswers(Duration.ofSeconds(3));

		HttpResponse<byte[]> response = this.gateway.chat(chatRequest());

		assertThat(response.statusCode()).isEqualTo(502);
		JsonNode error = json(response).path("error");
		assertThat(error.path("type").asString()).isEqualTo("upstream_error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_timeout");
	}

}
