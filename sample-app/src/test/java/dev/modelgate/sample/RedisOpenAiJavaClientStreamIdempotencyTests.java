package dev.modelgate.sample;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;

import org.springframework.test.context.ActiveProfiles;

/**
 * {@link OpenAiJavaClientStreamIdempotencyTests} with the redis profile, on a real Redis (the tests
 * fail, never skip, when none is reachable): the events are recorded there.
 */
@ActiveProfiles("redis")
class RedisOpenAiJavaClientStreamIdempotencyTests extends OpenAiJavaClientStreamIdempotencyTests {

	@BeforeAll
	static void requireRedis() {
		if (!RedisReachable.check()) {
			throw new IllegalStateException("These tests need Redis at REDIS_HOST:REDIS_PORT (default 127.0.0.1:6379); "
					+ "start one with: redis-server --daemonize yes --port 6379 --save \"\" --appendonly no");
		}
	}

	@Test
	void concurrentDuplicateOnASecondInstanceAttaches() throws Exception {
		try (ConfigurableApplicationContext second = startSecondInstance("redis")) {
			assertDuplicateOnTheSecondInstanceAttaches(second);
		}
	}

}
