package dev.modelgate.idempotency.web;

import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.testsupport.TestHttp;
import dev.modelgate.idempotency.web.testapp.ObservabilityController;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With client-identity-header set, a keyed request with neither a principal nor that header never
 * lands in a scope shared with other clients (contract, section 4): it is refused, unless
 * unidentified-clients=share says otherwise.
 */
class UnidentifiedClientHttpTests {

	private static final String BODY = "{\"order\":1}";

	@Nested
	@SpringBootTest(classes = { TestApplication.class, ObservabilityController.class },
			webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
					"modelgate.idempotency.client-identity-header=Authorization" })
	class ByDefault {

		@LocalServerPort
		private int port;

		@Test
		void keyedRequestWithoutIdentityIsRefusedAndNeverReplayedAnotherClientsResult() {
			TestHttp http = new TestHttp(this.port);
			String key = UUID.randomUUID().toString();
			HttpResponse<String> identified = http.post("/mdc", key, BODY, "Authorization", "Bearer one");
			HttpResponse<String> unidentified = http.post("/mdc", key, BODY);

			assertThat(identified.statusCode()).isEqualTo(200);
			assertThat(unidentified.statusCode()).isEqualTo(400);
			assertThat(unidentified.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("application/problem+json"));
			assertThat(unidentified.body()).contains("idempotency_client_unidentified").contains("Authorization");
		}

		@Test
		void requestWithoutKeyNeedsNoIdentity() {
			assertThat(new TestHttp(this.port).post("/mdc", null, BODY).statusCode()).isEqualTo(200);
		}

	}

	@Nested
	@SpringBootTest(classes = { TestApplication.class, ObservabilityController.class },
			webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
					"modelgate.idempotency.client-identity-header=Authorization",
					"modelgate.idempotency.unidentified-clients=share" })
	class WhenSharingIsAllowed {

		@LocalServerPort
		private int port;

		@Test
		void unidentifiedRequestsShareOneScope() {
			TestHttp http = new TestHttp(this.port);
			String key = UUID.randomUUID().toString();
			HttpResponse<String> first = http.post("/mdc", key, BODY);
			HttpResponse<String> second = http.post("/mdc", key, BODY);

			assertThat(second.statusCode()).isEqualTo(first.statusCode()).isEqualTo(200);
			assertThat(second.headers().firstValue(IdempotencyFilter.REPLAYED_HEADER)).hasValue("true");
		}

	}

}
