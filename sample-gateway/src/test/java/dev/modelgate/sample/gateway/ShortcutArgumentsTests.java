package dev.modelgate.sample.gateway;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The filter's shortcut with all four arguments, in the order the guide gives them:
 * {@code Idempotency=<scope>,<ttl>,<required>,<in-progress>}. The fourth, {@code wait}, makes a
 * duplicate of a running request wait ({@code waited}, then 409 after {@code wait-timeout} while the
 * upstream is held) instead of being refused at once.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "modelgate.idempotency.wait-timeout=1s")
class ShortcutArgumentsTests {

	static {
		GatewayBlockHound.install();
	}

	static final CountingUpstream upstream = CountingUpstream.shared();

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void routeToTheUpstream(DynamicPropertyRegistry registry) {
		String routes = "spring.cloud.gateway.server.webflux.routes";
		registry.add(routes + "[0].id", () -> "four-arguments");
		registry.add(routes + "[0].uri", () -> URI.create(upstream.baseUrl()).resolve("/").toString());
		registry.add(routes + "[0].predicates[0]", () -> "Path=/four/v1/chat/completions");
		registry.add(routes + "[0].filters[0]", () -> "Idempotency=four,1h,true,wait");
		registry.add(routes + "[0].filters[1]", () -> "StripPrefix=1");
	}

	@BeforeEach
	void resetUpstream() {
		upstream.reset();
	}

	@Test
	void theFourthArgumentMakesADuplicateWaitForTheRunningRequest() throws Exception {
		Decisions.seen.clear();
		CountDownLatch release = upstream.holdAnswers();
		String key = "four-" + UUID.randomUUID();
		try {
			CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> send(key));
			await().atMost(Duration.ofSeconds(30)).until(() -> upstream.calls() == 1 || first.isDone());
			assertThat(upstream.calls()).as("the first request reached the upstream").isEqualTo(1);

			HttpResponse<String> duplicate = send(key);

			assertThat(duplicate.statusCode()).isEqualTo(409);
			assertThat(Decisions.outcomes()).contains(IdempotencyOutcome.WAITED, IdempotencyOutcome.IN_PROGRESS);
			release.countDown();
			assertThat(first.get().statusCode()).isEqualTo(200);
		}
		finally {
			release.countDown();
		}
		assertThat(send(key).headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void theThirdArgumentRequiresAKey() {
		assertThat(send(null).statusCode()).isEqualTo(400);
		assertThat(upstream.calls()).isZero();
	}

	private HttpResponse<String> send(String key) {
		return RouteRequests.post(this.port, "/four/v1/chat/completions", "Bearer sk-shortcut", key, "{\"model\":\"m\"}");
	}

	/** Records the decisions the route filter takes. */
	@TestConfiguration(proxyBeanMethods = false)
	static class Decisions {

		static final List<IdempotencyDecision> seen = new CopyOnWriteArrayList<>();

		static List<IdempotencyOutcome> outcomes() {
			return seen.stream().map(IdempotencyDecision::outcome).toList();
		}

		@Bean
		IdempotencyListener recordingListener() {
			return new IdempotencyListener() {
				@Override
				public void onDecision(IdempotencyDecision decision) {
					seen.add(decision);
				}
			};
		}

	}

}
