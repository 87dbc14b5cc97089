package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.testapp.ObservabilityController;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code replayed-header-name} renames the header that marks a replay; the default name is then not sent. */
@Tag("boot")
@SpringBootTest(classes = { TestApplication.class, ObservabilityController.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=memory",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.replayed-header-name=X-Replayed-From-Record" })
class ReplayedHeaderNameHttpTests {

	@LocalServerPort
	private int port;

	@Test
	void replayIsMarkedWithTheConfiguredHeader() {
		TestHttp http = new TestHttp(this.port);
		String key = UUID.randomUUID().toString();
		HttpResponse<String> first = http.post("/mdc", key, "{}");
		HttpResponse<String> replay = http.post("/mdc", key, "{}");

		assertThat(first.headers().firstValue("X-Replayed-From-Record")).isEmpty();
		assertThat(replay.headers().firstValue("X-Replayed-From-Record")).hasValue("true");
		assertThat(replay.headers().firstValue(IdempotencyFilter.REPLAYED_HEADER)).isEmpty();
		assertThat(replay.body()).isEqualTo(first.body());
	}

}
