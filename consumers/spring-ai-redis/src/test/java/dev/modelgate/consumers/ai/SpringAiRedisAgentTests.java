package dev.modelgate.consumers.ai;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with only the dependencies docs/AGENTS.md names (the starter, Spring AI's OpenAI
 * starter, Spring Data Redis) starts with its {@code ToolCallingManager} wrapped, and that a retried agent run does
 * not act twice: real HTTP to the application, Spring AI's real OpenAI chat model talking HTTP to
 * {@link MockOpenAiModel}, the records in a real Redis.
 *
 * <p>What would fail without the library: the retry of a failed run asks the model again from the first round, and
 * the model asks for every tool again (checked: {@link MockOpenAiModel#firstRounds()} and the unprotected
 * {@code lookup_order}, which runs twice). Without the wrapped manager {@code send_email} and {@code create_ticket}
 * would run a second time, as {@code lookup_order} does, and their counts would be 2: with
 * {@code -Dmodelgate.idempotency.spring-ai.enabled=false} the retry test fails on exactly that
 * ({@code mails=2, tickets=2}), as do the Redis records test and the wrapped manager test.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SpringAiRedisAgentTests {

	private static final MockOpenAiModel MODEL = MockOpenAiModel.start();

	private static final String REPLAYED_HEADER = "Idempotent-Replayed";

	private static final String KEY_PREFIX = "modelgate:idempotency:";

	private static final String TASK = "{\"task\":\"Mail the weekly report to Ann, open a follow-up ticket, check order 42\"}";

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	@LocalServerPort
	private int port;

	@Autowired
	private AgentTools tools;

	@Autowired
	private AgentController agent;

	@Autowired
	private ToolCallingManager toolCallingManager;

	@Autowired
	private StringRedisTemplate redis;

	@Value("${spring.data.redis.host:localhost}:${spring.data.redis.port:6379}")
	private String redisAddress;

	/**
	 * The model is the test's; a model round that fails must fail the run, not be retried inside it by the client:
	 * {@code max-retries} is the OpenAI SDK's of Spring AI 2, {@code spring.ai.retry} the retry template of Spring AI
	 * 1 (each line ignores the other's).
	 */
	@DynamicPropertySource
	static void model(DynamicPropertyRegistry registry) {
		registry.add("spring.ai.openai.base-url", MODEL::springAiBaseUrl);
		registry.add("spring.ai.openai.api-key", () -> "test");
		registry.add("spring.ai.openai.max-retries", () -> "0");
		registry.add("spring.ai.retry.max-attempts", () -> "1");
	}

	@AfterAll
	static void stopModel() {
		MODEL.close();
	}

	/** The application starts without Redis (its client connects lazily): say so plainly rather than fail later. */
	@BeforeEach
	void redisAnswers() {
		try {
			this.redis.execute((RedisCallback<String>) (connection) -> connection.ping());
		}
		catch (RuntimeException ex) {
			throw new AssertionError("Redis at " + this.redisAddress
					+ " does not answer; these tests need it (set REDIS_HOST and REDIS_PORT) and never skip", ex);
		}
	}

	@Test
	void theAutoConfiguredToolCallingManagerIsWrapped() {
		assertThat(this.toolCallingManager).isInstanceOf(IdempotentToolCallingManager.class);
	}

	@Test
	void retryAfterTheRunCompletedIsReplayedWithoutAskingTheModelOrRunningTheToolsAgain() throws Exception {
		Counts before = counts();
		String key = UUID.randomUUID().toString();

		HttpResponse<byte[]> first = post(key);
		assertThat(first.statusCode()).as(describe(first)).isEqualTo(200);
		assertThat(first.headers().firstValue(REPLAYED_HEADER)).as(describe(first)).isEmpty();
		Counts afterFirst = counts();
		assertThat(afterFirst.minus(before)).as("one run: two model rounds, each tool once")
			.isEqualTo(new Counts(1, 2, 1, 1, 1, 1));
		// The final answer is the tool results the model was sent: this run's.
		List<String> results = newResults(before);
		assertThat(results).hasSize(3);
		assertThat(body(first)).contains(String.join(" | ", results));

		HttpResponse<byte[]> retry = post(key);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(200);
		assertThat(retry.headers().allValues(REPLAYED_HEADER)).as(describe(retry)).containsExactly("true");
		assertThat(retry.body()).as(describe(retry)).isEqualTo(first.body());
		assertThat(counts()).as("nothing ran for the replay: neither the handler, the model nor a tool")
			.isEqualTo(afterFirst);
	}

	@Test
	void retryOfARunWhoseAnswerFailedAfterTheToolsRanGivesTheModelTheRecordedResultsAndRunsNoToolAgain()
			throws Exception {
		Counts before = counts();
		String key = UUID.randomUUID().toString();
		MODEL.failNextFinalRound();

		HttpResponse<byte[]> failed = post(key);
		assertThat(failed.statusCode()).as(describe(failed)).isBetween(500, 599);
		Counts afterFailed = counts();
		assertThat(afterFailed.minus(before)).as("the tools ran, then the final round failed")
			.isEqualTo(new Counts(1, 2, 1, 1, 1, 1));
		List<String> firstResults = newResults(before);
		String mail = only(firstResults, "sent-mail-");
		String ticket = only(firstResults, "opened-ticket-");

		HttpResponse<byte[]> retry = post(key);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(200);
		assertThat(retry.headers().firstValue(REPLAYED_HEADER)).as("the key was released: the retry ran")
			.isEmpty();
		// The retry ran the agent again from its first round, and the model asked for every tool again: the
		// unprotected lookup ran again. The protected tools did not (without the library they would be at 2).
		assertThat(counts().minus(before)).as("handler, model rounds, first rounds, mails, tickets, lookups")
			.isEqualTo(new Counts(2, 4, 2, 1, 1, 2));
		String lookupAgain = only(newResults(afterFailed), "looked-up-order-");
		// The model's final round on the retry was sent the first run's recorded results.
		List<String> finalRounds = MODEL.finalRoundToolResults();
		assertThat(finalRounds.get(finalRounds.size() - 1)).isEqualTo(mail + " | " + ticket + " | " + lookupAgain);
		assertThat(body(retry)).contains(mail + " | " + ticket + " | " + lookupAgain);
	}

	@Test
	void theToolCallsAreRecordedInRedisUnderTheModelgatePrefix() throws Exception {
		Counts before = counts();
		HttpResponse<byte[]> run = post(UUID.randomUUID().toString());
		assertThat(run.statusCode()).as(describe(run)).isEqualTo(200);
		List<String> results = newResults(before);
		// A protected tool's result is in two records: its call's and the HTTP response's (the answer holds it).
		for (String protectedResult : List.of(only(results, "sent-mail-"), only(results, "opened-ticket-"))) {
			assertThat(recordsHolding(protectedResult)).as("records under %s holding %s", KEY_PREFIX, protectedResult)
				.containsExactly("completed", "completed");
		}
		// The unprotected tool's result is only in the HTTP response's record.
		String lookup = only(results, "looked-up-order-");
		assertThat(recordsHolding(lookup)).as("records under %s holding %s", KEY_PREFIX, lookup)
			.containsExactly("completed");
	}

	/** The states of the hashes under the prefix that hold {@code text} in a field. */
	private List<String> recordsHolding(String text) {
		byte[] part = text.getBytes(StandardCharsets.UTF_8);
		List<String> states = new ArrayList<>();
		ScanOptions pattern = ScanOptions.scanOptions().match(KEY_PREFIX + "*").count(1000).build();
		try (Cursor<String> keys = this.redis.scan(pattern)) {
			keys.forEachRemaining((key) -> {
				if (this.redis.type(key) == DataType.HASH && holds(key, part)) {
					states.add(this.redis.<String, String>opsForHash().get(key, "state"));
				}
			});
		}
		return states;
	}

	private boolean holds(String key, byte[] part) {
		Map<byte[], byte[]> fields = this.redis.execute((RedisCallback<Map<byte[], byte[]>>) (connection) -> connection
			.hashCommands()
			.hGetAll(key.getBytes(StandardCharsets.UTF_8)));
		String needle = new String(part, StandardCharsets.ISO_8859_1);
		return fields.values()
			.stream()
			.anyMatch((value) -> new String(value, StandardCharsets.ISO_8859_1).contains(needle));
	}

	private Counts counts() {
		return new Counts(this.agent.invocations(), MODEL.requests(), MODEL.firstRounds(), this.tools.mails(),
				this.tools.tickets(), this.tools.lookups());
	}

	/** The tool results returned since {@code before} was taken. */
	private List<String> newResults(Counts before) {
		List<String> all = this.tools.results();
		int earlier = before.mails() + before.tickets() + before.lookups();
		return all.subList(earlier, all.size());
	}

	private static String only(List<String> results, String prefix) {
		List<String> matching = results.stream().filter((result) -> result.startsWith(prefix)).toList();
		assertThat(matching).as("results starting with %s among %s", prefix, results).hasSize(1);
		return matching.get(0);
	}

	private HttpResponse<byte[]> post(String key) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/agent/runs"))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(TASK))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private static String body(HttpResponse<byte[]> response) {
		return new String(response.body(), StandardCharsets.UTF_8);
	}

	private static String describe(HttpResponse<byte[]> response) {
		return response.statusCode() + " " + response.headers().map() + " " + body(response);
	}

	/** What ran so far: the handler, the model (all rounds, first rounds) and each tool. */
	private record Counts(int handler, int modelRequests, int firstRounds, int mails, int tickets, int lookups) {

		Counts minus(Counts other) {
			return new Counts(this.handler - other.handler, this.modelRequests - other.modelRequests,
					this.firstRounds - other.firstRounds, this.mails - other.mails, this.tickets - other.tickets,
					this.lookups - other.lookups);
		}

	}

}
