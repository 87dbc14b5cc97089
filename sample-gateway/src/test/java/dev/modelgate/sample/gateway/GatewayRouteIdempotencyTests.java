package dev.modelgate.sample.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample's chat route, a Spring Cloud Gateway route with the {@code Idempotency} filter, in front
 * of the {@link CountingUpstream}: what the route promises, counted at the upstream. Each store runs
 * these in a subclass. Duplicates wait for the first request ({@code in-progress=wait}), so that every
 * client of a concurrent burst gets an answer. BlockHound watches Netty's threads: a blocking call on
 * the route's path (gateway, filter, engine, store adapter) fails the request that made it.
 */
@Tag("boot")
@Import({ InProgressAnswers.class, FirstResponses.class })
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.provider.api-key=test-provider-key", "modelgate.idempotency.in-progress=wait",
				// Generous, so that a loaded machine does not turn a slow store call into a 503.
				"modelgate.idempotency.operation-timeout=10s" })
abstract class GatewayRouteIdempotencyTests {

	static {
		GatewayBlockHound.install();
	}

	static final CountingUpstream upstream = CountingUpstream.shared();

	private static final String AUTHORIZATION = "Bearer sk-gateway-tests";

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	@LocalServerPort
	int port;

	@Autowired
	private Environment environment;

	private String key;

	private String body;

	@DynamicPropertySource
	static void upstreamProvider(DynamicPropertyRegistry registry) {
		registry.add("modelgate.provider.base-url", upstream::baseUrl);
	}

	@BeforeEach
	void freshKeyAndUpstream() {
		upstream.reset();
		InProgressAnswers.reset();
		FirstResponses.reset();
		this.key = "gw-" + UUID.randomUUID();
		this.body = "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello "
				+ UUID.randomUUID() + "\"}]}";
	}

	@Test
	void twentyConcurrentDuplicatesCallTheUpstreamOnceAndAllGetItsAnswer() throws Exception {
		int clients = 20;
		CountDownLatch release = upstream.holdAnswers();
		CountDownLatch ready = new CountDownLatch(clients);
		CountDownLatch go = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(clients);
		List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
		try {
			for (int i = 0; i < clients; i++) {
				answers.add(threads.submit(() -> {
					ready.countDown();
					go.await();
					return send(this.key, this.body);
				}));
			}
			assertThat(ready.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			go.countDown();
			// The upstream holds its answer until every duplicate reached the store and was told the
			// key is in progress: none of them may reach the upstream, before or after the release.
			await().atMost(WAIT)
				.until(() -> upstream.calls() >= 1 && InProgressAnswers.requests() >= clients - 1);
			release.countDown();
			List<HttpResponse<byte[]>> responses = new ArrayList<>();
			for (Future<HttpResponse<byte[]>> answer : answers) {
				responses.add(answer.get(WAIT.toSeconds(), TimeUnit.SECONDS));
			}

			assertThat(responses).extracting(HttpResponse::statusCode).containsOnly(200);
			byte[] first = responses.get(0).body();
			assertThat(responses).allSatisfy((response) -> assertThat(response.body()).isEqualTo(first));
			assertThat(new String(first, StandardCharsets.UTF_8)).contains("\"id\":\"chatcmpl-upstream-1\"");
			assertThat(responses.stream().filter((response) -> replayed(response)).count()).isEqualTo(clients - 1);
		}
		finally {
			release.countDown();
			threads.shutdownNow();
		}
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void retryAfterCompletionIsReplayedWithTheSameBytesAndItsLength() {
		HttpResponse<byte[]> first = send(this.key, this.body);
		HttpResponse<byte[]> retry = send(this.key, this.body);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(replayed(first)).isFalse();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(retry.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/json"));
		assertThat(retry.headers().firstValue("Content-Length")).hasValue(String.valueOf(first.body().length));
		assertThat(retry.headers().firstValue("Transfer-Encoding")).isEmpty();
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void upstreamGetsTheGatewaysApiKeyOnItsPathNeverTheClients() {
		send(this.key, this.body);

		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().path()).isEqualTo("/v1/chat/completions");
		assertThat(upstream.lastCall().authorization()).isEqualTo("Bearer test-provider-key");
		assertThat(upstream.lastCall().body()).isEqualTo(this.body);
	}

	@Test
	void differentKeysCallTheUpstreamEachTime() {
		HttpResponse<byte[]> first = send(this.key, this.body);
		HttpResponse<byte[]> second = send(this.key + "-other", this.body);

		assertThat(replayed(first)).isFalse();
		assertThat(replayed(second)).isFalse();
		assertThat(second.body()).isNotEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void twoApiKeysNeverShareAKeySpace() {
		send(this.key, this.body);
		HttpResponse<byte[]> other = send(this.key, this.body, "Bearer sk-another-client");

		assertThat(replayed(other)).isFalse();
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void requestsWithoutAKeyPassThroughEveryTime() {
		send(null, this.body);
		HttpResponse<byte[]> second = send(null, this.body);

		assertThat(replayed(second)).isFalse();
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void upstreamServerErrorReleasesTheKeySoTheRetryCallsAgain() {
		upstream.answerWith(500, "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}");
		HttpResponse<byte[]> failed = send(this.key, this.body);
		upstream.answerWith(200, "{\"id\":\"chatcmpl-after-the-error\",\"object\":\"chat.completion\"}");
		HttpResponse<byte[]> retry = send(this.key, this.body);
		HttpResponse<byte[]> replay = send(this.key, this.body);

		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(replayed(retry)).isFalse();
		assertThat(new String(retry.body(), StandardCharsets.UTF_8)).contains("chatcmpl-after-the-error");
		assertThat(replayed(replay)).isTrue();
		assertThat(upstream.calls()).isEqualTo(2);
	}

	@Test
	void keyReusedWithAnotherBodyIsRefusedWithoutCallingTheUpstream() {
		send(this.key, this.body);
		HttpResponse<byte[]> reused = send(this.key, this.body.replace("Hello", "Goodbye"));

		assertThat(reused.statusCode()).isEqualTo(422);
		assertThat(new String(reused.body(), StandardCharsets.UTF_8)).contains("idempotency_key_reused");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void keyedStreamIsRecordedThenReplayedByteExactAndResumedAfterLastEventId() {
		String id = "chatcmpl-" + UUID.randomUUID();
		String[] chunks = { chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				chunk(id, "{\"content\":\"One\"}", null), chunk(id, "{\"content\":\" two\"}", null),
				chunk(id, "{}", "\"stop\""), "[DONE]" };
		upstream.streamWith(chunks);
		String streaming = this.body.replace("\"model\"", "\"stream\":true,\"model\"");

		HttpResponse<byte[]> first = send(this.key, streaming);
		HttpResponse<byte[]> replay = send(this.key, streaming);
		HttpResponse<byte[]> resumed = send(this.key, streaming, AUTHORIZATION, "Last-Event-ID", "2");

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		List<Event> events = Event.parse(first.body());
		assertThat(events).extracting(Event::data).containsExactly(chunks);
		assertThat(events).extracting(Event::sequence).containsExactly("1", "2", "3", "4", "5");
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(Event.parse(resumed.body())).containsExactlyElementsOf(events.subList(2, events.size()));
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void duplicateDuringALiveStreamAttachesAndGetsEveryEventWithoutASecondCall() throws Exception {
		assertDuplicateDuringALiveStreamAttaches(this.port);
	}

	/**
	 * Starts a second gateway on this test's store, beside the test's own, on a port of its own:
	 * duplicates that a load balancer sends to another instance.
	 */
	ConfigurableApplicationContext startSecondInstance() {
		List<String> properties = new ArrayList<>(List.of("server.port=0",
				"modelgate.provider.api-key=test-provider-key", "modelgate.provider.base-url=" + upstream.baseUrl(),
				"modelgate.idempotency.in-progress=wait", "modelgate.idempotency.operation-timeout=10s"));
		for (String name : List.of("modelgate.idempotency.store", "modelgate.idempotency.jdbc.initialize-schema",
				"spring.autoconfigure.exclude", "spring.data.redis.host", "spring.data.redis.port",
				"spring.datasource.url", "spring.datasource.username")) {
			if (this.environment.containsProperty(name)) {
				properties.add(name + "=" + this.environment.getProperty(name));
			}
		}
		// As command-line arguments: SpringApplicationBuilder.properties are defaults, which the
		// sample's application.yml (store: memory) would override.
		return new SpringApplicationBuilder(SampleGatewayApplication.class)
			.run(properties.stream().map((property) -> "--" + property).toArray(String[]::new));
	}

	/** A duplicate sent to {@code second} while this instance streams attaches to it across the store. */
	void assertDuplicateOnTheSecondInstanceAttaches(ConfigurableApplicationContext second) throws Exception {
		int secondPort = Integer.parseInt(second.getEnvironment().getProperty("local.server.port"));
		assertThat(secondPort).isNotEqualTo(this.port);
		assertDuplicateDuringALiveStreamAttaches(secondPort);
	}

	private void assertDuplicateDuringALiveStreamAttaches(int duplicatePort) throws Exception {
		String id = "chatcmpl-" + UUID.randomUUID();
		String[] chunks = { chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				chunk(id, "{\"content\":\"Live\"}", null), chunk(id, "{\"content\":\" stream\"}", null),
				chunk(id, "{}", "\"stop\""), "[DONE]" };
		upstream.streamWith(chunks);
		CountDownLatch release = upstream.holdStreamsAfter(2);
		String streaming = this.body.replace("\"model\"", "\"stream\":true,\"model\"");
		try {
			HttpResponse<InputStream> first = this.http.send(request(this.key, streaming, AUTHORIZATION),
					HttpResponse.BodyHandlers.ofInputStream());
			BufferedReader firstEvents = new BufferedReader(
					new InputStreamReader(first.body(), StandardCharsets.UTF_8));
			// The first two events have been recorded (each is stored before it is sent) and the
			// upstream holds the rest: the duplicate arrives while the stream is live.
			StringBuilder firstBody = new StringBuilder();
			int seen = readEvents(firstEvents, 2, firstBody);
			HttpResponse<InputStream> duplicate = this.http.send(
					request(duplicatePort, this.key, streaming, AUTHORIZATION), HttpResponse.BodyHandlers.ofInputStream());
			release.countDown();
			// The rest through the same reader, which may have buffered some of it already.
			char[] buffer = new char[8192];
			for (int read; (read = firstEvents.read(buffer)) != -1;) {
				firstBody.append(buffer, 0, read);
			}
			byte[] duplicateBody = duplicate.body().readAllBytes();

			assertThat(seen).isEqualTo(2);
			assertThat(replayed(first)).isFalse();
			assertThat(duplicate.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(Event.parse(duplicateBody)).extracting(Event::data).containsExactly(chunks);
			assertThat(Event.parse(duplicateBody))
				.isEqualTo(Event.parse(firstBody.toString().getBytes(StandardCharsets.UTF_8)));
		}
		finally {
			release.countDown();
		}
		assertThat(upstream.calls()).isEqualTo(1);
	}

	/**
	 * A client that drops a stream after two events, then retries with the same key, gets the whole
	 * stream: the generation went on to its end without it (the upstream's connection was not closed
	 * when the client's was), and a recording is completed only by the stream's own end.
	 */
	@Test
	void clientThatDropsTheStreamThenRetriesGetsTheWholeStreamFromOneUpstreamCall() throws Exception {
		String id = "chatcmpl-" + UUID.randomUUID();
		String[] chunks = { chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				chunk(id, "{\"content\":\"Dropped\"}", null), chunk(id, "{\"content\":\" client\"}", null),
				chunk(id, "{}", "\"stop\""), "[DONE]" };
		upstream.streamWith(chunks);
		CountDownLatch release = upstream.holdStreamsAfter(2);
		String streaming = this.body.replace("\"model\"", "\"stream\":true,\"model\"");
		try {
			HttpResponse<InputStream> first = this.http.send(request(this.key, streaming, AUTHORIZATION),
					HttpResponse.BodyHandlers.ofInputStream());
			BufferedReader firstEvents = new BufferedReader(
					new InputStreamReader(first.body(), StandardCharsets.UTF_8));
			int seen = readEvents(firstEvents, 2, new StringBuilder());
			assertThat(seen).isEqualTo(2);
			// Closing the body before its end closes the connection: the client is gone. The gateway
			// reports the run's response as done once it has seen that.
			first.body().close();
			await().atMost(WAIT).until(() -> FirstResponses.count() == 1);
		}
		finally {
			release.countDown();
		}

		HttpResponse<byte[]> retry = send(this.key, streaming);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(Event.parse(retry.body())).extracting(Event::data).containsExactly(chunks);
		assertThat(upstream.calls()).isEqualTo(1);
	}

	/**
	 * A retry that comes while the upstream has not answered yet (a model thinking before its first
	 * token) and asks for {@code text/event-stream} waits for the stream to begin and attaches, instead
	 * of the 409 that the OpenAI SDKs' retries would run into.
	 */
	@Test
	void duplicateBeforeTheFirstEventWaitsForTheStreamAndAttaches() throws Exception {
		String id = "chatcmpl-" + UUID.randomUUID();
		String[] chunks = { chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				chunk(id, "{\"content\":\"Thought\"}", null), chunk(id, "{}", "\"stop\""), "[DONE]" };
		upstream.streamWith(chunks);
		CountDownLatch release = upstream.holdAnswers();
		String streaming = this.body.replace("\"model\"", "\"stream\":true,\"model\"");
		try {
			CompletableFuture<HttpResponse<byte[]>> first = this.http.sendAsync(
					request(this.key, streaming, AUTHORIZATION), HttpResponse.BodyHandlers.ofByteArray());
			await().atMost(WAIT).until(() -> upstream.calls() == 1);
			CompletableFuture<HttpResponse<byte[]>> duplicate = this.http.sendAsync(
					request(this.key, streaming, AUTHORIZATION, "Accept", "text/event-stream"),
					HttpResponse.BodyHandlers.ofByteArray());
			// The duplicate found the key in progress, without a stream yet: it waits.
			await().atMost(WAIT).until(() -> InProgressAnswers.requests() >= 1);
			assertThat(duplicate).isNotDone();
			release.countDown();

			HttpResponse<byte[]> original = first.get(30, TimeUnit.SECONDS);
			HttpResponse<byte[]> attached = duplicate.get(30, TimeUnit.SECONDS);
			assertThat(attached.statusCode()).isEqualTo(200);
			assertThat(attached.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(Event.parse(attached.body())).extracting(Event::data).containsExactly(chunks);
			assertThat(Event.parse(attached.body())).isEqualTo(Event.parse(original.body()));
		}
		finally {
			release.countDown();
		}
		assertThat(upstream.calls()).isEqualTo(1);
	}

	/** Reads lines until {@code events} data lines were read, into {@code read}; {@return how many were} */
	private static int readEvents(BufferedReader reader, int events, StringBuilder read) throws IOException {
		int seen = 0;
		String line;
		while (seen < events && (line = reader.readLine()) != null) {
			read.append(line).append('\n');
			if (line.startsWith("data:")) {
				seen++;
			}
		}
		return seen;
	}

	static String chunk(String id, String delta, String finishReason) {
		return Chunks.chunk(id, delta, finishReason);
	}

	private static boolean replayed(HttpResponse<?> response) {
		return response.headers().firstValue("Idempotent-Replayed").isPresent();
	}

	private HttpResponse<byte[]> send(String key, String body) {
		return send(key, body, AUTHORIZATION);
	}

	private HttpResponse<byte[]> send(String key, String body, String authorization, String... moreHeaders) {
		try {
			return this.http.send(request(key, body, authorization, moreHeaders), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new IllegalStateException("The gateway did not answer", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private HttpRequest request(String key, String body, String authorization, String... moreHeaders) {
		return request(this.port, key, body, authorization, moreHeaders);
	}

	private HttpRequest request(int port, String key, String body, String authorization, String... moreHeaders) {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Authorization", authorization)
			.timeout(WAIT)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		if (moreHeaders.length > 0) {
			request.headers(moreHeaders);
		}
		return request.build();
	}

	/**
	 * One Server-Sent Event of an answer.
	 *
	 * @param id its id line's value, or {@code null}
	 * @param data its data
	 */
	record Event(String id, String data) {

		/** {@return the place the id names, without the attempt after its dot} */
		String sequence() {
			return (this.id == null || this.id.indexOf('.') < 0) ? this.id : this.id.substring(0, this.id.indexOf('.'));
		}


		static List<Event> parse(byte[] body) {
			String text = new String(body, StandardCharsets.UTF_8).replace("\r\n", "\n");
			return Arrays.stream(text.split("\n\n")).filter((block) -> !block.isBlank()).map(Event::of).toList();
		}

		private static Event of(String block) {
			String id = null;
			StringBuilder data = new StringBuilder();
			for (String line : block.split("\n")) {
				if (line.startsWith("id:")) {
					id = line.substring(3).trim();
				}
				else if (line.startsWith("data:")) {
					data.append((data.length() > 0) ? "\n" : "").append(line.substring(5).stripLeading());
				}
			}
			return new Event(id, data.toString());
		}

	}

}
