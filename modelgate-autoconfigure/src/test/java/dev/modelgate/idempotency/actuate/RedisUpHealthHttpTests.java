package dev.modelgate.idempotency.actuate;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.testsupport.RedisTestServer;
import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/** The idempotency health contributor on a real server with a real Redis that answers, naming its eviction policy. */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis", "management.endpoint.health.show-details=always",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class RedisUpHealthHttpTests {

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
	}

	@Test
	void storeThatAnswersIsUp() {
		HttpResponse<String> health = new TestHttp(this.port).get("/actuator/health/idempotency");
		assertThat(health.statusCode()).isEqualTo(200);
		JsonNode body = JsonMapper.builder().build().readTree(health.body());
		assertThat(body.get("status").stringValue()).isEqualTo("UP");
		assertThat(body.get("details").get("store").stringValue()).isEqualTo("redis");
		// Whatever the shared test server's policy is, the health names it.
		assertThat(body.get("details").get("evictionPolicy").stringValue()).isNotBlank();
	}

	@Test
	void storeTakesPartInTheOverallHealth() {
		JsonNode body = JsonMapper.builder().build().readTree(new TestHttp(this.port).get("/actuator/health").body());
		assertThat(body.get("components").get("idempotency").get("status").stringValue()).isEqualTo("UP");
	}

}
