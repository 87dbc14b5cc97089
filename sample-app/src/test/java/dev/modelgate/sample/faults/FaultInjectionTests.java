package dev.modelgate.sample.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.EnumSet;
import java.util.UUID;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault header only pauses a request when fault injection is enabled, and then only for the
 * configured time; the request still completes normally afterwards.
 */
@Tag("boot")
class FaultInjectionTests {

	private static final Duration PAUSE = Duration.ofMillis(400);

	static HttpResponse<String> chat(int port, String faultPoint) throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.header("Authorization", "Bearer sk-fault-tests")
			.header("X-ModelGate-Fault", faultPoint)
			.POST(HttpRequest.BodyPublishers.ofString(
					"{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"" + UUID.randomUUID() + "\"}]}"))
			.build();
		return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
	class WhenDisabled {

		@LocalServerPort
		int port;

		@Autowired
		ApplicationContext context;

		@Test
		void faultHeaderIsIgnoredByDefault() throws Exception {
			long start = System.nanoTime();
			HttpResponse<String> response = chat(this.port, "before-upstream");

			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(PAUSE);
			assertThat(this.context.containsBean("faultInjectionFilter")).isFalse();
		}

	}

	@Nested
	@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
			properties = { "modelgate.sample.faults.enabled=true", "modelgate.sample.faults.pause=400ms" })
	class WhenEnabled {

		@LocalServerPort
		int port;

		@Test
		void requestPausesAtEachPointThenCompletes() throws Exception {
			// A chat request's points; an agent run's are held by the reliability suite (AbstractAgentProcessKillTests).
			for (FaultPoint point : EnumSet.range(FaultPoint.BEFORE_UPSTREAM, FaultPoint.AFTER_RECORD)) {
				long start = System.nanoTime();
				HttpResponse<String> response = chat(this.port, point.headerValue());

				assertThat(response.statusCode()).as(point.headerValue()).isEqualTo(200);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).as(point.headerValue())
					.isGreaterThanOrEqualTo(PAUSE);
			}
		}

	}

}
