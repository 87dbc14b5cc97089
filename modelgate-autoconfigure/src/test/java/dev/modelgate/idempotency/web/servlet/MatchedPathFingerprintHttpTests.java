package dev.modelgate.idempotency.web.servlet;

import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fingerprint holds the path as Spring MVC matched it (contract, section 4): spellings of one path
 * that reach the same handler are one request, and a different path is still a key reuse. The
 * requests go over a raw socket, so that no client normalises the path on the way.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=memory",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.client-identity-header=Authorization" })
class MatchedPathFingerprintHttpTests {

	private static final String CLIENT = "Authorization: Bearer path-client";

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	private HttpClientSupport http;

	@BeforeEach
	void setUp() {
		this.http = new HttpClientSupport(this.port);
		this.invocations.reset();
	}

	@ParameterizedTest
	@CsvSource({ "/orders, /%6Frders, orders", "/orders, /orders;jsessionid=0A1B2C3D, orders",
			"/orders, /orders;a=b, orders", "/items/7, /items;a=b/7, item", "/items/7, /items/7;v=1, item",
			"/items/7, /items/%37, item" })
	void retryOnAnotherSpellingOfTheMatchedPathIsReplayed(String path, String spelling, String handler) {
		String key = UUID.randomUUID().toString();
		String first = post(path, key);
		String retry = post(spelling, key);

		assertThat(first).startsWith("HTTP/1.1 2").doesNotContain("Idempotent-Replayed");
		assertThat(retry).as(retry).startsWith(first.substring(0, 12)).contains("Idempotent-Replayed: true");
		assertThat(body(retry)).isEqualTo(body(first));
		assertThat(this.invocations.count(handler)).isEqualTo(1);
	}

	@Test
	void anotherPathUnderTheSameKeyIsStillAKeyReuse() {
		String key = UUID.randomUUID().toString();
		post("/items/7", key);
		String other = post("/items/%38", key);

		assertThat(other).startsWith("HTTP/1.1 422").contains("idempotency_key_reused");
		assertThat(this.invocations.count("item")).isEqualTo(1);
	}

	/** Spring MVC's path patterns match no literal route on these: they never reach the handler, nor the key. */
	@ParameterizedTest
	@ValueSource(strings = { "/./orders", "//orders", "/x/../orders" })
	void pathSpringMvcDoesNotMatchNeitherRunsTheHandlerNorSpendsTheKey(String spelling) {
		String key = UUID.randomUUID().toString();
		assertThat(post(spelling, key)).startsWith("HTTP/1.1 404");

		String first = post("/orders", key);
		assertThat(first).startsWith("HTTP/1.1 201").doesNotContain("Idempotent-Replayed");
		assertThat(this.invocations.count("orders")).isEqualTo(1);
	}

	private String post(String path, String key) {
		return this.http.raw(path, "{\"item\":\"book\"}", "Idempotency-Key: " + key, CLIENT);
	}

	private static String body(String response) {
		return response.substring(response.indexOf("\r\n\r\n") + 4);
	}

}
