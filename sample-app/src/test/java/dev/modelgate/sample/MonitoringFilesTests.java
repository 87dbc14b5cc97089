package dev.modelgate.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;

import dev.modelgate.idempotency.core.IdempotencyOutcome;

import static dev.modelgate.sample.GatewayClient.newKey;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The monitoring files the user's guide ships, {@code docs/monitoring/prometheus-alerts.yml} and
 * {@code docs/monitoring/grafana-dashboard.json}, checked against a real scrape of the sample gateway
 * after keyed traffic (a first run, a replay, a key reused, a recorded stream): every metric an
 * expression names is exported, every label it selects or groups by is on that metric (or is one
 * Prometheus adds: {@code job}, {@code instance}), every {@code outcome} it names is one the library
 * counts, and every alert has a severity, a summary and a runbook URL whose section exists.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_monitoring_test",
				"spring.modulith.events.republish-outstanding-events-on-restart=false" })
// The outbox profile (PostgreSQL and RabbitMQ): the scrape has the outbox's gauges too.
@ActiveProfiles("outbox")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MonitoringFilesTests {

	private static final Path MONITORING = repositoryRoot().resolve("docs/monitoring");

	private static final Set<String> ADDED_BY_PROMETHEUS = Set.of("job", "instance");

	private static final Pattern METRIC = Pattern.compile("\\b(modelgate_(?:idempotency|outbox)_[a-z_]+)\\b(\\{[^}]*\\})?");

	private static final Pattern MATCHER = Pattern.compile("(\\w+)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");

	private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without)\\s*\\(([^)]*)\\)");

	@LocalServerPort
	int port;

	@LocalManagementPort
	int managementPort;

	/** Each exported sample name with the label names its series carry. */
	private final Map<String, Set<String>> exported = new HashMap<>();

	@BeforeAll
	void trafficThenScrape() throws Exception {
		GatewayClient gateway = new GatewayClient(this.port);
		String key = newKey();
		gateway.chat(promptRequest("Monitor me"), "Idempotency-Key", key);
		gateway.chat(promptRequest("Monitor me"), "Idempotency-Key", key);
		gateway.chat(promptRequest("Monitor me, otherwise"), "Idempotency-Key", key);
		gateway.stream(promptRequest("Stream me", "\"stream\":true"), "Idempotency-Key", newKey());
		// A status lookup with a token the gateway did not write: counted, as every lookup is.
		assertThat(gateway.get("/idempotency-status/not-a-token", "Idempotency-Key", key).statusCode()).isEqualTo(400);
		HttpResponse<String> scrape = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.managementPort + "/actuator/prometheus"))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(scrape.statusCode()).isEqualTo(200);
		Pattern sample = Pattern.compile("^(modelgate_(?:idempotency|outbox)_[a-z_]+)(\\{(.*)\\})? ");
		scrape.body().lines().forEach((line) -> {
			Matcher matcher = sample.matcher(line);
			if (matcher.find()) {
				Set<String> labels = this.exported.computeIfAbsent(matcher.group(1), (name) -> new HashSet<>());
				Matcher label = MATCHER.matcher((matcher.group(3) != null) ? matcher.group(3) : "");
				while (label.find()) {
					labels.add(label.group(1));
				}
			}
		});
		assertThat(this.exported).containsKeys("modelgate_idempotency_decisions_total",
				"modelgate_idempotency_stream_events_sum", "modelgate_idempotency_status_lookups_total",
				"modelgate_outbox_publications_oldest_age_seconds");
	}

	@Test
	void everyAlertRuleNamesWhatTheLibraryExportsAndHasARunbook() throws IOException {
		Map<String, Object> file = new Yaml().load(Files.readString(MONITORING.resolve("prometheus-alerts.yml")));
		List<Map<String, Object>> rules = new ArrayList<>();
		for (Object group : (List<?>) file.get("groups")) {
			for (Object rule : (List<?>) ((Map<?, ?>) group).get("rules")) {
				@SuppressWarnings("unchecked")
				Map<String, Object> typed = (Map<String, Object>) rule;
				rules.add(typed);
			}
		}
		assertThat(rules).hasSizeGreaterThanOrEqualTo(5);
		Set<String> runbookSections = anchors(repositoryRoot().resolve("docs/OPERATIONS.md"));
		for (Map<String, Object> rule : rules) {
			String name = (String) rule.get("alert");
			assertThat(name).isNotBlank();
			checkExpression(name, (String) rule.get("expr"));
			assertThat(((Map<?, ?>) rule.get("labels")).get("severity")).as(name).isIn("critical", "warning", "info");
			Map<?, ?> annotations = (Map<?, ?>) rule.get("annotations");
			assertThat((String) annotations.get("summary")).as(name).isNotBlank();
			String runbook = (String) annotations.get("runbook_url");
			assertThat(runbook).as(name).startsWith(projectUrl() + "/blob/main/docs/OPERATIONS.md#");
			assertThat(runbookSections).as("the runbook section of %s", name)
				.contains(runbook.substring(runbook.indexOf('#') + 1));
		}
	}

	@Test
	void everyDashboardQueryNamesWhatTheLibraryExports() throws IOException {
		JsonNode dashboard = JsonMapper.builder().build().readTree(Files.readString(MONITORING.resolve("grafana-dashboard.json")));
		assertThat(dashboard.path("uid").asString()).isNotBlank();
		int queries = 0;
		for (JsonNode panel : dashboard.path("panels")) {
			assertThat(panel.path("targets").isEmpty()).as(panel.path("title").asString()).isFalse();
			for (JsonNode target : panel.path("targets")) {
				checkExpression(panel.path("title").asString(), target.path("expr").asString()
					.replace("$__rate_interval", "5m")
					.replace("\"$job\"", "\".*\""));
				queries++;
			}
		}
		assertThat(queries).isGreaterThanOrEqualTo(8);
	}

	private void checkExpression(String name, String expression) {
		assertThat(expression).as(name).isNotBlank();
		Set<String> labelsOfItsMetrics = new HashSet<>(ADDED_BY_PROMETHEUS);
		Matcher metric = METRIC.matcher(expression);
		int metrics = 0;
		while (metric.find()) {
			metrics++;
			String metricName = metric.group(1);
			assertThat(this.exported).as("%s: metric %s in the scrape", name, metricName).containsKey(metricName);
			Set<String> labels = this.exported.get(metricName);
			labelsOfItsMetrics.addAll(labels);
			Matcher matcher = MATCHER.matcher((metric.group(2) != null) ? metric.group(2) : "");
			while (matcher.find()) {
				String label = matcher.group(1);
				if (!ADDED_BY_PROMETHEUS.contains(label)) {
					assertThat(labels).as("%s: label %s of %s", name, label, metricName).contains(label);
				}
				if (label.equals("outcome")) {
					checkOutcomes(name, matcher.group(3));
				}
			}
		}
		assertThat(metrics).as("%s names a metric", name).isPositive();
		Matcher grouping = GROUPING.matcher(expression);
		while (grouping.find()) {
			for (String label : grouping.group(1).split(",")) {
				assertThat(labelsOfItsMetrics).as("%s: grouped by %s", name, label.trim()).contains(label.trim());
			}
		}
	}

	/** Each alternative of an {@code outcome} matcher matches an outcome the library counts. */
	private static void checkOutcomes(String name, String regex) {
		List<String> outcomes = Arrays.stream(IdempotencyOutcome.values()).map(IdempotencyOutcome::tagValue).toList();
		for (String alternative : regex.split("\\|")) {
			Pattern pattern = Pattern.compile(alternative);
			assertThat(outcomes).as("%s: outcome %s", name, alternative)
				.anyMatch((outcome) -> pattern.matcher(outcome).matches());
		}
	}

	/** GitHub's anchors for a Markdown file's headings. */
	private static Set<String> anchors(Path markdown) throws IOException {
		Set<String> anchors = new HashSet<>();
		boolean code = false;
		for (String line : Files.readAllLines(markdown)) {
			code ^= line.startsWith("```");
			if (!code && line.matches("^#{1,6} .*")) {
				anchors.add(line.replaceFirst("^#+ ", "")
					.trim()
					.toLowerCase(Locale.ROOT)
					.replaceAll("[^\\p{L}\\p{N} _-]", "")
					.replace(' ', '-'));
			}
		}
		return anchors;
	}

	/** {@return the project's URL, as the published poms name it} */
	private static String projectUrl() throws IOException {
		Matcher url = Pattern.compile("<url>(https://github.com/[^<]+)</url>")
			.matcher(Files.readString(repositoryRoot().resolve("build-parent/pom.xml")));
		assertThat(url.find()).as("the project's URL in build-parent/pom.xml").isTrue();
		return url.group(1);
	}

	private static Path repositoryRoot() {
		Path directory = Path.of("").toAbsolutePath();
		while (directory != null && !Files.exists(directory.resolve(".ci/run"))) {
			directory = directory.getParent();
		}
		if (directory == null) {
			throw new IllegalStateException("not inside the repository");
		}
		return directory;
	}

}
