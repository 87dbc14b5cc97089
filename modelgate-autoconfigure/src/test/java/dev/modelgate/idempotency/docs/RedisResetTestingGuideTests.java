package dev.modelgate.idempotency.docs;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/TESTING.md, "Resetting state between tests" on Redis: deleting the keys under the test's
 * {@code redis.key-prefix}, on a real Redis.
 */
@Tag("store")
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis",
				"modelgate.idempotency.redis.key-prefix=guide-test:idempotency:" })
class RedisResetTestingGuideTests {

	@Autowired
	private StringRedisTemplate redis;

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
	}

	@AfterEach
	void forgetEveryKey() {
		this.redis.delete(this.redis.keys("guide-test:idempotency:*"));
	}

	@Test
	void aKeyUsedByAnEarlierTestRunsAgainAfterItsRecordsAreDeleted() throws Exception {
		GuideClient client = new GuideClient(this.port);
		assertThat(client.post("order-5").headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(client.post("order-5").headers().firstValue("Idempotent-Replayed")).hasValue("true");

		forgetEveryKey();

		assertThat(client.post("order-5").headers().firstValue("Idempotent-Replayed")).isEmpty();
	}

}
