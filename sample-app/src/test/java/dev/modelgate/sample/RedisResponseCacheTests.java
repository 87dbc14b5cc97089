package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The redis profile against a real Redis (the tests fail, never skip, when none is reachable): the
 * response cache and the idempotency records both live there.
 */
@ActiveProfiles("redis")
class RedisResponseCacheTests extends StubbedProviderTests {

	private static final String KEY_PREFIX = "modelgate-test:cache:" + UUID.randomUUID() + ":";

	@Autowired
	StringRedisTemplate redis;

	@BeforeAll
	static void requireRedis() {
		if (!RedisReachable.check()) {
			throw new IllegalStateException("These tests need Redis at REDIS_HOST:REDIS_PORT (default 127.0.0.1:6379); "
					+ "start one with: redis-server --daemonize yes --port 6379 --save \"\" --appendonly no");
		}
	}

	@DynamicPropertySource
	static void cacheKeyPrefix(DynamicPropertyRegistry registry) {
		registry.add("modelgate.cache.key-prefix", () -> KEY_PREFIX);
	}

	@AfterEach
	void deleteCachedAnswers() {
		this.redis.delete(cachedKeys());
	}

	@Test
	void keepsDeterministicAnswersInRedisForTheConfiguredTtl() {
		String request = chatRequest("\"temperature\":0");

		HttpResponse<byte[]> first = this.gateway.chat(request);
		HttpResponse<byte[]> second = this.gateway.chat(request);

		assertThat(header(first, "X-ModelGate-Cache")).isEqualTo("MISS");
		assertThat(header(second, "X-ModelGate-Cache")).isEqualTo("HIT");
		assertThat(second.body()).isEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(1);
		Set<String> keys = cachedKeys();
		assertThat(keys).singleElement().satisfies((key) -> {
			assertThat(key).matches(KEY_PREFIX.replace(".", "\\.") + "[0-9a-f]{64}");
			assertThat(this.redis.getExpire(key)).isBetween(1L, 300L);
		});
	}

	@Test
	void replaysKeyedRequestFromRedisStore() {
		String key = newKey();
		String request = chatRequest();

		HttpResponse<byte[]> first = this.gateway.chat(request, "Idempotency-Key", key);
		HttpResponse<byte[]> retry = this.gateway.chat(request, "Idempotency-Key", key);

		assertThat(header(retry, "Idempotent-Replayed")).isEqualTo("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(1);
	}

	private Set<String> cachedKeys() {
		return this.redis.keys(KEY_PREFIX + "*");
	}

}
