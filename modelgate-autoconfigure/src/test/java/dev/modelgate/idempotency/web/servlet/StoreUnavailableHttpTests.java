package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static dev.modelgate.idempotency.web.servlet.HttpClientSupport.text;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis store pointed at a port where nothing listens: begin fails, the client gets 503 with
 * Retry-After and the handler never runs, unless the endpoint opted into PROCEED. The application
 * still starts.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis", "spring.data.redis.connect-timeout=500ms",
				"spring.data.redis.timeout=500ms", "modelgate.idempotency.operation-timeout=1s",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class StoreUnavailableHttpTests {

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	private HttpClientSupport http;

	@DynamicPropertySource
	static void deadRedis(DynamicPropertyRegistry registry) throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", () -> closedPort);
	}

	@BeforeEach
	void setUp() {
		this.http = new HttpClientSupport(this.port);
		this.invocations.reset();
	}

	@Test
	void storeDownAnswers503AndHandlerNeverRuns() {
		HttpResponse<byte[]> response = this.http.postJson("/orders", UUID.randomUUID().toString(), "{}");
		assertThat(response.statusCode()).isEqualTo(503);
		assertThat(response.headers().firstValue("Retry-After")).hasValue("1");
		assertThat(response.headers().firstValue("Cache-Control")).hasValue("no-store");
		assertThat(text(response)).contains("\"code\":\"idempotency_store_unavailable\"");
		assertThat(this.invocations.count("orders")).isZero();
	}

	@Test
	void storeDownWithProceedRunsTheHandlerUnprotected() {
		HttpResponse<byte[]> response = this.http.postJson("/proceed", UUID.randomUUID().toString(), "{}");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(this.invocations.count("proceed")).isEqualTo(1);
	}

	@Test
	void requestsWithoutKeyAreUnaffectedByTheStore() {
		assertThat(this.http.postJson("/orders", null, "{}").statusCode()).isEqualTo(201);
		assertThat(this.invocations.count("orders")).isEqualTo(1);
	}

}
