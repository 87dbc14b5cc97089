package dev.modelgate.idempotency.web.servlet;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.testsupport.ObservabilityTest;
import dev.modelgate.idempotency.testsupport.TestHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the filter leaves in the logs: the scope hash in the MDC while the handler runs, one DEBUG
 * line per decision under the transitions logger, and never the key, the body or the client.
 */
@ObservabilityTest
@ExtendWith(OutputCaptureExtension.class)
class IdempotencyLoggingHttpTests {

	private static final String API_KEY = "Bearer sk-never-logged-42";

	private static final String BODY = "{\"prompt\":\"a prompt that must stay private\"}";

	@LocalServerPort
	private int port;

	private TestHttp http;

	@BeforeEach
	void setUp() {
		this.http = new TestHttp(this.port);
	}

	@Test
	void scopeHashIsInTheMdcWhileTheHandlerRunsAndGoneAfterwards() {
		String key = newKey();
		HttpResponse<String> keyed = this.http.post("/mdc", key, BODY, "Authorization", API_KEY);
		assertThat(keyed.body()).isEqualTo("scope=" + scope(key));

		HttpResponse<String> unkeyed = this.http.post("/mdc", null, BODY, "Authorization", API_KEY);
		assertThat(unkeyed.body()).isEqualTo("scope=null");
	}

	@Test
	void transitionsAreNarratedAtDebugUnderOneLogger(CapturedOutput output) {
		String key = newKey();
		this.http.post("/mdc", key, BODY, "Authorization", API_KEY);
		this.http.post("/mdc", key, BODY, "Authorization", API_KEY);
		this.http.post("/mdc", key, "{\"prompt\":\"another\"}", "Authorization", API_KEY);

		String prefix = "POST /mdc scope=" + scope(key) + ": ";
		assertThat(output.getOut()).contains(IdempotencyFilter.TRANSITIONS_LOGGER)
			.contains(prefix + IdempotencyOutcome.ACQUIRED.narration())
			.contains(prefix + IdempotencyOutcome.RECORDED.narration())
			.contains(prefix + IdempotencyOutcome.REPLAYED.narration())
			.contains(prefix + IdempotencyOutcome.MISMATCH.narration());
	}

	@Test
	void neitherKeyNorBodyNorClientIsEverLogged(CapturedOutput output) {
		String key = newKey();
		this.http.post("/mdc", key, BODY, "Authorization", API_KEY);
		this.http.post("/mdc", key, BODY, "Authorization", API_KEY);
		this.http.post("/mdc", "\"" + key + "\",x", BODY, "Authorization", API_KEY);
		this.http.post("/orders", key, BODY + " ".repeat(2048), "Authorization", API_KEY);

		assertThat(output.getOut()).contains(scope(key))
			.doesNotContain(key)
			.doesNotContain("sk-never-logged-42")
			.doesNotContain("must stay private");
	}

	private static String scope(String key) {
		return IdempotencyScope.of(DefaultClientIdentityResolver.headerIdentity(API_KEY), "POST", "/mdc",
				IdempotencyKey.parse(List.of(key), 255))
			.hash();
	}

	private static String newKey() {
		return UUID.randomUUID().toString();
	}

}
