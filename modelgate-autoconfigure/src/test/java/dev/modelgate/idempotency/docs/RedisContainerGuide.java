package dev.modelgate.idempotency.docs;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/TESTING.md, "A {@code @SpringBootTest} on a real Redis": the guide's Testcontainers example,
 * compiled with the module's tests. It is not one of them (the build's machines have no Docker; its
 * own Redis tests use a running server, or a container where Docker runs, through
 * {@code RedisTestServer}): name a copy {@code ...Tests} in your application.
 */
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "modelgate.idempotency.store=redis")
@Testcontainers
class RedisContainerGuide {

	@Container
	@ServiceConnection(name = "redis")
	static GenericContainer<?> redis = new GenericContainer<>("redis:7-alpine").withExposedPorts(6379);

	@LocalServerPort
	private int port;

	@Test
	void aRetryIsReplayedFromRedis() throws Exception {
		GuideClient client = new GuideClient(this.port);

		assertThat(client.post("order-7").headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(client.post("order-7").headers().firstValue("Idempotent-Replayed")).hasValue("true");
	}

}
