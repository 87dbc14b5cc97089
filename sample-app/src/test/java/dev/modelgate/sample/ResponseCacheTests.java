package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The response cache for deterministic requests, in memory (the default store).
 */
class ResponseCacheTests extends StubbedProviderTests {

	private static final String CACHE = "X-ModelGate-Cache";

	@Test
	void servesSecondDeterministicRequestFromCache() {
		String request = chatRequest("\"temperature\":0");

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(header(first, CACHE)).isEqualTo("MISS");
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(header(second, CACHE)).isEqualTo("HIT");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(header(second, "Content-Type")).startsWith("application/json");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void treatsZeroWrittenAnyWayAndMembersInAnyOrderAsTheSameRequest() {
		String prompt = "Hello " + UUID.randomUUID();

		HttpResponse<byte[]> integer = this.gateway.chat(promptRequest(prompt, "\"temperature\":0"));
		HttpResponse<byte[]> decimal = this.gateway.chat(promptRequest(prompt, "\"temperature\":0.0"));
		HttpResponse<byte[]> exponent = this.gateway.chat(promptRequest(prompt, "\"temperature\":0e0"));
		HttpResponse<byte[]> reordered = this.gateway.chat("{\"temperature\":0,\"messages\":[{\"content\":\""
				+ prompt + "\",\"role\":\"user\"}],\"model\":\"gpt-4o-mini\"}");

		assertThat(header(integer, CACHE)).isEqualTo("MISS");
		assertThat(header(decimal, CACHE)).isEqualTo("HIT");
		assertThat(header(exponent, CACHE)).isEqualTo("HIT");
		assertThat(header(reordered, CACHE)).isEqualTo("HIT");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void bypassesCacheForNonZeroTemperature() {
		String request = chatRequest("\"temperature\":0.7");

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(header(first, CACHE)).isEqualTo("BYPASS");
		assertThat(header(second, CACHE)).isEqualTo("BYPASS");
		assertThat(second.body()).isNotEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void bypassesCacheWithoutTemperature() {
		String request = chatRequest();

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(header(first, CACHE)).isEqualTo("BYPASS");
		assertThat(header(second, CACHE)).isEqualTo("BYPASS");
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void keepsOneCachePerClient() {
		String request = chatRequest("\"temperature\":0");

		HttpResponse<byte[]> alice = this.gateway.chat(request, "Authorization", "Bearer alice");
		HttpResponse<byte[]> bob = this.gateway.chat(request, "Authorization", "Bearer bob");
		HttpResponse<byte[]> aliceAgain = this.gateway.chat(request, "Authorization", "Bearer alice");

		assertThat(header(alice, CACHE)).isEqualTo("MISS");
		assertThat(header(bob, CACHE)).isEqualTo("MISS");
		assertThat(bob.body()).isNotEqualTo(alice.body());
		assertThat(header(aliceAgain, CACHE)).isEqualTo("HIT");
		assertThat(aliceAgain.body()).isEqualTo(alice.body());
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void doesNotCacheUpstreamErrors() {
		upstream.answerWith(400, "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"code\":null}}");
		String request = chatRequest("\"temperature\":0");

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(first.statusCode()).isEqualTo(400);
		assertThat(header(second, CACHE)).isEqualTo("MISS");
		assertThat(upstream.calls()).isEqualTo(2);
	}

}
