package dev.modelgate.idempotency.web.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With client-identity-header set, a keyed request with neither a principal nor a non-blank value of
 * that header never lands in a scope shared with other clients (contract, section 4): it is refused,
 * unless unidentified-clients says share (then all such clients share one scope) or skip (then it runs
 * unprotected). The requests go over a raw socket, so that a blank header reaches the server as sent.
 */
@Tag("boot")
class UnidentifiedClientHttpTests {

	private static final String BODY = "{\"order\":1}";

	/** No header, an empty value, white space only: none of them identifies a client. */
	private static final String[] UNIDENTIFIED = { null, "Authorization:", "Authorization: ", "Authorization: \t  " };

	abstract static class UnidentifiedClients {

		@LocalServerPort
		private int port;

		@Autowired
		private Invocations invocations;

		@Autowired
		private MeterRegistry registry;

		private HttpClientSupport http;

		@BeforeEach
		void setUp() {
			this.http = new HttpClientSupport(this.port);
			this.invocations.reset();
		}

		/** A POST to /orders with, unless {@code null}, the key and the raw identity header line. */
		String post(String key, String identityLine) {
			List<String> lines = new ArrayList<>();
			if (key != null) {
				lines.add("Idempotency-Key: " + key);
			}
			if (identityLine != null) {
				lines.add(identityLine);
			}
			return this.http.raw("/orders", BODY, lines.toArray(new String[0]));
		}

		HttpClientSupport http() {
			return this.http;
		}

		int handlerRuns() {
			return this.invocations.count("orders");
		}

		double decisions(String outcome) {
			Counter counter = this.registry.find(MicrometerIdempotencyListener.DECISIONS)
				.tags("outcome", outcome, "endpoint", "/orders")
				.counter();
			return (counter != null) ? counter.count() : 0;
		}

	}

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
					"modelgate.idempotency.client-identity-header=Authorization" })
	class ByDefault extends UnidentifiedClients {

		@Test
		void keyedRequestWithoutIdentityIsRefusedAndNeverReplayedAnotherClientsResult() {
			String key = UUID.randomUUID().toString();
			String identified = post(key, "Authorization: Bearer one");
			String unidentified = post(key, null);

			assertThat(identified).startsWith("HTTP/1.1 201");
			assertThat(unidentified).startsWith("HTTP/1.1 400")
				.containsIgnoringCase("Content-Type: application/problem+json")
				.contains("idempotency_client_unidentified")
				.contains("Authorization");
			assertThat(handlerRuns()).isEqualTo(1);
		}

		@Test
		void twoUnidentifiedClientsWithTheSameKeyAndBodyAreBothRefusedAndTheHandlerNeverRuns() {
			double before = decisions("unidentified");
			String key = UUID.randomUUID().toString();
			for (String identityLine : UNIDENTIFIED) {
				assertThat(post(key, identityLine)).as(String.valueOf(identityLine))
					.startsWith("HTTP/1.1 400")
					.contains("idempotency_client_unidentified")
					.doesNotContain("Idempotent-Replayed");
			}
			assertThat(handlerRuns()).isZero();
			assertThat(decisions("unidentified") - before).isEqualTo(UNIDENTIFIED.length);
		}

		/**
		 * Behind a proxy that appends the identity header instead of replacing it, the first value would
		 * be the client's own choice: a header sent twice identifies nobody and is refused.
		 */
		@Test
		void identityHeaderSentTwiceIsRefusedNotResolvedToItsFirstValue() {
			String key = UUID.randomUUID().toString();
			String victim = post(key, "Authorization: Bearer victim");
			String spoofed = post(key, "Authorization: Bearer victim\r\nAuthorization: Bearer attacker");

			assertThat(victim).startsWith("HTTP/1.1 201");
			assertThat(spoofed).startsWith("HTTP/1.1 400")
				.containsIgnoringCase("Content-Type: application/problem+json")
				.contains("idempotency_client_ambiguous")
				.doesNotContain("Idempotent-Replayed");
			assertThat(handlerRuns()).isEqualTo(1);
		}

		@Test
		void requestWithoutKeyNeedsNoIdentity() {
			assertThat(post(null, null)).startsWith("HTTP/1.1 201");
			assertThat(handlerRuns()).isEqualTo(1);
		}

	}

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
					"modelgate.idempotency.client-identity-header=Authorization",
					"modelgate.idempotency.unidentified-clients=share" })
	class WhenSharingIsAllowed extends UnidentifiedClients {

		/** The documented cost of share: one unidentified client gets the answer another one caused. */
		@ParameterizedTest
		@ValueSource(strings = { "Authorization:", "Authorization: ", "Authorization: \t  " })
		void unidentifiedClientsShareOneScopeWhateverBlankValueTheySend(String blank) {
			double before = decisions("unidentified_shared");
			String key = UUID.randomUUID().toString();
			String first = post(key, null);
			String second = post(key, blank);

			assertThat(first).startsWith("HTTP/1.1 201").doesNotContain("Idempotent-Replayed");
			assertThat(second).startsWith("HTTP/1.1 201").contains("Idempotent-Replayed: true");
			assertThat(handlerRuns()).isEqualTo(1);
			assertThat(decisions("unidentified_shared") - before).isEqualTo(2);
		}

		@Test
		void identifiedClientNeverSharesTheAnonymousScope() {
			String key = UUID.randomUUID().toString();
			post(key, null);
			String identified = post(key, "Authorization: Bearer one");

			assertThat(identified).startsWith("HTTP/1.1 201").doesNotContain("Idempotent-Replayed");
			assertThat(handlerRuns()).isEqualTo(2);
		}

	}

	@Nested
	@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
					"modelgate.idempotency.client-identity-header=Authorization",
					"modelgate.idempotency.unidentified-clients=skip", "modelgate.idempotency.max-request-size=1KB" })
	class WhenSkipping extends UnidentifiedClients {

		/** As without a key: never buffered, so max-request-size does not apply. */
		@Test
		void unidentifiedRequestIsNotBufferedNorLimited() {
			String large = "{\"pad\":\"" + "x".repeat(4096) + "\"}";
			String response = this.http().raw("/orders", large, "Idempotency-Key: " + UUID.randomUUID());

			assertThat(response).startsWith("HTTP/1.1 201");
			assertThat(handlerRuns()).isEqualTo(1);
		}

		@Test
		void identifiedRequestOverTheLimitIsStillRefused() {
			String large = "{\"pad\":\"" + "x".repeat(4096) + "\"}";
			String response = this.http()
				.raw("/orders", large, "Idempotency-Key: " + UUID.randomUUID(), "Authorization: Bearer one");

			assertThat(response).startsWith("HTTP/1.1 413");
			assertThat(handlerRuns()).isZero();
		}

		@Test
		void unidentifiedClientsRunUnprotectedAndNeitherGetsTheOthersAnswer() {
			double skipped = decisions("unidentified_skipped");
			double bypassed = decisions("bypassed");
			String key = UUID.randomUUID().toString();
			for (String identityLine : UNIDENTIFIED) {
				assertThat(post(key, identityLine)).as(String.valueOf(identityLine))
					.startsWith("HTTP/1.1 201")
					.doesNotContain("Idempotent-Replayed");
			}
			assertThat(handlerRuns()).isEqualTo(UNIDENTIFIED.length);
			assertThat(decisions("unidentified_skipped") - skipped).isEqualTo(UNIDENTIFIED.length);
			assertThat(decisions("bypassed") - bypassed).isEqualTo(UNIDENTIFIED.length);
		}

		@Test
		void identifiedClientIsStillProtected() {
			String key = UUID.randomUUID().toString();
			post(key, "Authorization: Bearer one");
			String retry = post(key, "Authorization: Bearer one");

			assertThat(retry).startsWith("HTTP/1.1 201").contains("Idempotent-Replayed: true");
			assertThat(handlerRuns()).isEqualTo(1);
		}

	}

}
