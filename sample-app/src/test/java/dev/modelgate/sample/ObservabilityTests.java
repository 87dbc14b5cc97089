package dev.modelgate.sample;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;

import static dev.modelgate.sample.GatewayClient.newKey;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the README's observability section shows, with the gateway as it starts from the README:
 * Prometheus metrics of the idempotency filter, health with the store's contributor, and read-only
 * look-ups of a record through the idempotency endpoint, all on the management port (bound to
 * loopback), none on the application port but the liveness and readiness statuses.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ObservabilityTests {

	private static final String ROUTE = "/v1/chat/completions";

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	GatewayClient gateway;

	@BeforeEach
	void connect() {
		this.gateway = new GatewayClient(this.port);
	}

	@Test
	void prometheusShowsDecisionsLatenciesStoreTimersAndLeases() {
		String key = newKey();
		this.gateway.chat(promptRequest("Count me"), "Idempotency-Key", key, "Authorization", "Bearer metrics");
		this.gateway.chat(promptRequest("Count me"), "Idempotency-Key", key, "Authorization", "Bearer metrics");

		HttpResponse<String> scrape = management("GET", "/actuator/prometheus");
		assertThat(scrape.statusCode()).isEqualTo(200);
		String metrics = scrape.body();
		assertThat(series(metrics, "modelgate_idempotency_decisions_total")).anySatisfy((line) -> assertThat(line)
			.contains("endpoint=\"" + ROUTE + "\"", "method=\"POST\"", "outcome=\"acquired\""));
		assertThat(series(metrics, "modelgate_idempotency_decisions_total"))
			.anySatisfy((line) -> assertThat(line).contains("outcome=\"replayed\""));
		assertThat(series(metrics, "modelgate_idempotency_requests_seconds_count"))
			.anySatisfy((line) -> assertThat(line).contains("kind=\"first\""))
			.anySatisfy((line) -> assertThat(line).contains("kind=\"replay\""));
		assertThat(series(metrics, "modelgate_idempotency_store_seconds_count"))
			.anySatisfy((line) -> assertThat(line).contains("operation=\"begin\"", "store=\"memory\""));
		assertThat(series(metrics, "modelgate_idempotency_leases_held")).hasSize(1);
	}

	@Test
	void healthShowsTheIdempotencyStore() {
		HttpResponse<String> health = management("GET", "/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		JsonNode body = JsonMapper.builder().build().readTree(health.body());
		assertThat(body.path("status").asString()).isEqualTo("UP");
		assertThat(body.path("components").path("idempotency").path("status").asString()).isEqualTo("UP");
	}

	@Test
	void endpointLooksUpARecordButCannotDeleteIt() {
		String key = newKey();
		this.gateway.chat(promptRequest("Did it go through?"), "Idempotency-Key", key, "Authorization",
				"Bearer support");
		String lookup = "/actuator/idempotency?method=POST&route=" + ROUTE + "&key=" + key + "&client="
				+ URLEncoder.encode("Bearer support", StandardCharsets.UTF_8);

		HttpResponse<String> found = management("GET", lookup);
		assertThat(found.statusCode()).isEqualTo(200);
		JsonNode record = JsonMapper.builder().build().readTree(found.body());
		assertThat(record.path("state").asString()).isEqualTo("completed");
		assertThat(record.path("outcome").asString()).isEqualTo("response");
		assertThat(found.body()).doesNotContain(key).doesNotContain("Did it go through");

		assertThat(management("DELETE", lookup).statusCode()).isGreaterThanOrEqualTo(400);
		assertThat(management("GET", lookup).statusCode()).isEqualTo(200);
	}

	@Test
	void applicationPortShowsNoRecordNorMetricsNorHealthDetails() {
		String key = newKey();
		this.gateway.chat(promptRequest("Private"), "Idempotency-Key", key, "Authorization", "Bearer private");
		String lookup = "/actuator/idempotency?method=POST&route=" + ROUTE + "&key=" + key + "&client="
				+ URLEncoder.encode("Bearer private", StandardCharsets.UTF_8);
		assertThat(management("GET", lookup).statusCode()).isEqualTo(200);

		for (String path : List.of(lookup, "/actuator/prometheus", "/actuator/health", "/actuator")) {
			HttpResponse<String> answer = application("GET", path);
			assertThat(answer.statusCode()).as(path).isEqualTo(404);
			assertThat(answer.body()).as(path).doesNotContain("completed").doesNotContain("modelgate_idempotency");
		}
	}

	@Test
	void applicationPortAnswersLivenessAndReadinessWithAStatusOnly() {
		for (String path : List.of("/livez", "/readyz")) {
			HttpResponse<String> probe = application("GET", path);
			assertThat(probe.statusCode()).as(path).isEqualTo(200);
			assertThat(JsonMapper.builder().build().readTree(probe.body()).path("status").asString()).isEqualTo("UP");
			assertThat(probe.body()).as(path).doesNotContain("idempotency");
		}
	}

	/** A separate port alone would still be open to the network: it listens on loopback only. */
	@Test
	void managementServerListensOnLoopbackOnly(@Value("${management.server.address}") String address) {
		assertThat(address).isEqualTo("127.0.0.1");
		assertThat(this.managementPort).isNotEqualTo(this.port);
	}

	/** The samples of one metric in a Prometheus scrape. */
	private static List<String> series(String scrape, String name) {
		return scrape.lines().filter((line) -> line.startsWith(name + "{") || line.startsWith(name + " ")).toList();
	}

	private HttpResponse<String> management(String method, String path) {
		return send(this.managementPort, method, path);
	}

	private HttpResponse<String> application(String method, String path) {
		return send(this.port, method, path);
	}

	private HttpResponse<String> send(int port, String method, String path) {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.method(method, HttpRequest.BodyPublishers.noBody())
			.build();
		try {
			return this.http.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
