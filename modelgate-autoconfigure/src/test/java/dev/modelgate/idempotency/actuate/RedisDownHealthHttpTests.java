package dev.modelgate.idempotency.actuate;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store pointed at a closed port: the health contributor is DOWN (and the application's
 * health with it), requests get 503 and are counted as store_unavailable. The idempotency endpoint,
 * though exposed, stays off: it has no access unless given some.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis", "management.endpoint.health.show-details=always",
				"management.endpoints.web.exposure.include=health,idempotency",
				"spring.data.redis.connect-timeout=500ms", "spring.data.redis.timeout=500ms",
				"modelgate.idempotency.operation-timeout=1s",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class RedisDownHealthHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private MeterRegistry meters;

	@DynamicPropertySource
	static void deadRedis(DynamicPropertyRegistry registry) throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> closedPort);
	}

	@Test
	void storeThatDoesNotAnswerIsDown() {
		HttpResponse<String> health = new TestHttp(this.port).get("/actuator/health/idempotency");
		assertThat(health.statusCode()).isEqualTo(503);
		JsonNode body = JsonMapper.builder().build().readTree(health.body());
		assertThat(body.get("status").stringValue()).isEqualTo("DOWN");
		assertThat(body.get("details").get("store").stringValue()).isEqualTo("redis");
		assertThat(body.get("details").get("error").stringValue()).contains("IdempotencyStoreException");
		assertThat(new TestHttp(this.port).get("/actuator/health").statusCode()).isEqualTo(503);
	}

	@Test
	void requestsAreRefusedAndCountedAsStoreUnavailable() {
		double before = storeUnavailable();
		HttpResponse<String> response = new TestHttp(this.port).post("/orders", UUID.randomUUID().toString(), "{}");
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(storeUnavailable()).isEqualTo(before + 1);
	}

	@Test
	void endpointIsOffByDefaultEvenWhenExposed() {
		assertThat(new TestHttp(this.port).get("/actuator/idempotency/" + "0".repeat(64)).statusCode())
			.isEqualTo(404);
	}

	private double storeUnavailable() {
		Counter counter = this.meters.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", "store_unavailable", "endpoint", "/orders")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

}
