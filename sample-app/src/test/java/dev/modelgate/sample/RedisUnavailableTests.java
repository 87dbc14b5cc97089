package dev.modelgate.sample;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.resource.Delay;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis profile with Redis down from the start: the gateway still starts, the cache degrades to
 * misses, and keyed requests are refused rather than run unprotected.
 */
@ActiveProfiles("redis")
class RedisUnavailableTests extends StubbedProviderTests {

	@Autowired
	LettuceConnectionFactory connectionFactory;

	@DynamicPropertySource
	static void closedRedisPort(DynamicPropertyRegistry registry) throws IOException {
		int port = UnreachableProviderTests.closedPort();
		registry.add("spring.data.redis.port", () -> port);
	}

	@Test
	void answersDeterministicRequestsAsCacheMissesWhenRedisIsDown() {
		String request = chatRequest("\"temperature\":0");

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(header(first, "X-ModelGate-Cache")).isEqualTo("MISS");
		assertThat(second.statusCode()).isEqualTo(200);
		assertThat(header(second, "X-ModelGate-Cache")).isEqualTo("MISS");
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void refusesKeyedRequestsWithOpenAiErrorWhenStoreIsDown() {
		HttpResponse<byte[]> response = this.gateway.chat(chatRequest(), "Idempotency-Key", newKey());

		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(header(response, "Retry-After")).isNotNull();
		JsonNode error = json(response).path("error");
		assertThat(error.path("code").asString()).isEqualTo("idempotency_store_unavailable");
		assertThat(error.path("type").asString()).isEqualTo("server_error");
		assertThat(upstream.calls()).isZero();
	}

	/**
	 * The library's default for the Redis store's client, which the gateway keeps: commands refused
	 * while disconnected, reconnection at least every second.
	 */
	@Test
	void redisClientFailsFastWhileDisconnectedAndRetriesTheConnectionAtLeastEverySecond() {
		LettuceClientConfiguration client = this.connectionFactory.getClientConfiguration();
		assertThat(client.getClientOptions()).get()
			.extracting(ClientOptions::getDisconnectedBehavior)
			.isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
		Delay reconnectDelay = client.getClientResources().orElseThrow().reconnectDelay();
		assertThat(reconnectDelay.createDelay(1)).isEqualTo(Duration.ofMillis(100));
		assertThat(reconnectDelay.createDelay(100)).isEqualTo(Duration.ofSeconds(1));
	}

}
