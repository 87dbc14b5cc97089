package dev.modelgate.sample;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Issue 12's "what must hold" for streams, with the official OpenAI Java client (and the JDK client
 * where the raw events matter): a keyed {@code "stream": true} relayed from the counting
 * {@link UpstreamStub} is generated once, whatever the client does, and every retry, duplicate or
 * resume gets the recorded events. Each store runs these in a subclass.
 */
// A model may think for seconds before its first token: the provider's timeout must outlast it.
@TestPropertySource(properties = "modelgate.provider.timeout=10s")
abstract class OpenAiJavaClientStreamIdempotencyTests extends StubbedProviderTests {

	/** The API key the official client sends: the key space of every request of these tests. */
	private static final String AUTHORIZATION = "Bearer sk-openai-java-tests";

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private OpenAIClient client;

	private String prompt;

	private String key;

	/** The upstream chunks of this test (an id of its own, so no other test's record can match). */
	private List<String> chunks;

	@BeforeEach
	void connect() {
		this.client = OpenAiJavaClientTests.openAiClient(this.port);
		this.prompt = "Stream once " + UUID.randomUUID();
		this.key = newKey();
		String id = "chatcmpl-" + UUID.randomUUID();
		this.chunks = new ArrayList<>();
		this.chunks.add(chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null));
		for (String word : List.of("One", " two", " three", " four", " five", " six")) {
			this.chunks.add(chunk(id, "{\"content\":\"" + word + "\"}", null));
		}
		this.chunks.add(chunk(id, "{}", "\"stop\""));
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void replaysStreamToTheOfficialClientWithTheSameChunks() {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));

		HttpResponseFor<StreamResponse<ChatCompletionChunk>> first = createStreaming();
		List<ChatCompletionChunk> firstChunks = readAll(first);
		HttpResponseFor<StreamResponse<ChatCompletionChunk>> retry = createStreaming();
		List<ChatCompletionChunk> retryChunks = readAll(retry);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().values("Idempotent-Replayed")).isEmpty();
		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
		assertThat(firstChunks).hasSize(this.chunks.size());
		assertThat(content(firstChunks)).isEqualTo("One two three four five six");
		assertThat(retryChunks).isEqualTo(firstChunks);
		assertThat(retryChunks).extracting(ChatCompletionChunk::id).containsOnly(firstChunks.get(0).id());
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void replaysStreamWithTheSameEventBytesAndIds() {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));

		HttpResponse<String> first = send(null);
		HttpResponse<String> retry = send(null);

		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		List<Event> events = Event.parse(first.body());
		assertThat(events).extracting(Event::sequence).containsExactly(ids(1, this.chunks.size() + 1));
		assertThat(events).extracting(Event::data).containsExactly(withDone(this.chunks));
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void retryAfterTheClientAbortedMidStreamGetsTheWholeAnswer() throws Exception {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));
		CountDownLatch release = upstream.holdStreamsAfter(2);

		HttpResponseFor<StreamResponse<ChatCompletionChunk>> aborted = createStreaming();
		List<ChatCompletionChunk> seen = new ArrayList<>();
		try (StreamResponse<ChatCompletionChunk> stream = aborted.parse()) {
			Iterator<ChatCompletionChunk> iterator = stream.stream().iterator();
			seen.add(iterator.next());
			seen.add(iterator.next());
		}
		// The client is gone while the provider still has six chunks to send.
		release.countDown();

		List<ChatCompletionChunk> retried = readAll(createStreaming());
		HttpResponse<String> replay = awaitReplayOfTheEnd();

		assertThat(seen).hasSize(2);
		assertThat(retried).hasSize(this.chunks.size()).startsWith(seen.toArray(ChatCompletionChunk[]::new));
		assertThat(content(retried)).isEqualTo("One two three four five six");
		assertThat(Event.parse(replay.body())).extracting(Event::data).containsExactly(withDone(this.chunks));
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void retryAfterTheConnectionClosedMidStreamGetsEveryEventAndDone() throws Exception {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));
		CountDownLatch release = upstream.holdStreamsAfter(2);

		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout((int) WAIT.toMillis());
			byte[] body = GatewayClient.promptRequest(this.prompt, "\"stream\":true").getBytes(StandardCharsets.UTF_8);
			String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
					+ "Authorization: " + AUTHORIZATION + "\r\nIdempotency-Key: " + this.key + "\r\nContent-Length: "
					+ body.length + "\r\n\r\n";
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			out.write(body);
			out.flush();
			// The head of the answer, then its first two events (the chunk sizes of the chunked
			// encoding come as lines of their own, so count the events' data lines).
			BufferedReader reader = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			assertThat(reader.readLine()).startsWith("HTTP/1.1 200");
			int events = 0;
			String line;
			while (events < 2 && (line = reader.readLine()) != null) {
				if (line.startsWith("data:")) {
					events++;
				}
			}
			assertThat(events).isEqualTo(2);
		}
		// The connection is closed while the provider still has seven events to send.
		release.countDown();

		HttpResponse<String> replay = awaitReplayOfTheEnd();

		List<Event> events = Event.parse(replay.body());
		assertThat(events).extracting(Event::sequence).containsExactly(ids(1, this.chunks.size() + 1));
		assertThat(events).extracting(Event::data).containsExactly(withDone(this.chunks));
		assertThat(upstream.calls()).isEqualTo(1);
	}

	/**
	 * A model that thinks 3 s before its first token; the client gives up after 0.5 s and retries with
	 * the same key: the retry waits for the stream to begin (stream.head-wait) and attaches, instead of
	 * a 409 that the SDK's own retries would run out on. One upstream call.
	 */
	@Test
	void retryBeforeTheFirstTokenOfAThinkingModelGetsTheWholeStreamOnce() {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));
		upstream.delayAnswers(Duration.ofSeconds(3));
		OpenAIClient impatient = OpenAIOkHttpClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port + "/v1")
			.apiKey("sk-openai-java-tests")
			.timeout(Duration.ofMillis(500))
			.maxRetries(0)
			.build();
		try {
			assertThatThrownBy(() -> readAll(createStreaming(impatient))).as("the first attempt timed out")
				.isInstanceOf(RuntimeException.class);
		}
		finally {
			impatient.close();
		}

		HttpResponseFor<StreamResponse<ChatCompletionChunk>> retry = createStreaming();
		List<ChatCompletionChunk> chunks = readAll(retry);

		assertThat(retry.statusCode()).isEqualTo(200);
		assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
		assertThat(chunks).hasSize(this.chunks.size());
		assertThat(content(chunks)).isEqualTo("One two three four five six");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void concurrentDuplicateAttachesAndGetsTheSameChunks() throws Exception {
		assertDuplicateAttaches(this.client);
	}

	/**
	 * A second gateway on the same store and the same upstream stub, as another instance behind the
	 * load balancer: with the store's profile, the stub as provider and ports of its own.
	 */
	static ConfigurableApplicationContext startSecondInstance(String profile, String... properties) {
		List<String> all = new ArrayList<>(List.of("server.port=0", "management.server.port=0",
				"modelgate.provider.base-url=" + upstream.baseUrl(), "modelgate.provider.api-key=test-provider-key",
				"modelgate.provider.timeout=1s"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(SampleApplication.class).profiles(profile)
			.properties(all.toArray(String[]::new))
			.run();
	}

	/** A duplicate sent to the second instance while the first streams attaches across the store. */
	void assertDuplicateOnTheSecondInstanceAttaches(ConfigurableApplicationContext second) throws Exception {
		int secondPort = Integer.parseInt(second.getEnvironment().getProperty("local.server.port"));
		assertThat(secondPort).isNotEqualTo(this.port);
		OpenAIClient secondClient = OpenAiJavaClientTests.openAiClient(secondPort);
		try {
			assertDuplicateAttaches(secondClient);
		}
		finally {
			secondClient.close();
		}
	}

	private void assertDuplicateAttaches(OpenAIClient duplicateClient) throws Exception {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));
		CountDownLatch release = upstream.holdStreamsAfter(2);
		CountDownLatch firstChunkRead = new CountDownLatch(1);
		CountDownLatch duplicateAnswered = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			Future<Streamed> first = threads.submit(() -> {
				HttpResponseFor<StreamResponse<ChatCompletionChunk>> response = createStreaming();
				List<ChatCompletionChunk> read = new ArrayList<>();
				try (StreamResponse<ChatCompletionChunk> stream = response.parse()) {
					stream.stream().forEach((chunk) -> {
						read.add(chunk);
						firstChunkRead.countDown();
					});
				}
				return new Streamed(response.headers().values("Idempotent-Replayed"), read);
			});
			Future<Streamed> duplicate = threads.submit(() -> {
				assertThat(firstChunkRead.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
				HttpResponseFor<StreamResponse<ChatCompletionChunk>> response = createStreaming(duplicateClient);
				duplicateAnswered.countDown();
				return new Streamed(response.headers().values("Idempotent-Replayed"), readAll(response));
			});
			// The provider holds the rest of the first stream until the duplicate has its answer.
			assertThat(duplicateAnswered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
			release.countDown();

			Streamed firstAnswer = first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			Streamed duplicateAnswer = duplicate.get(WAIT.toSeconds(), TimeUnit.SECONDS);
			assertThat(firstAnswer.replayed()).isEmpty();
			assertThat(duplicateAnswer.replayed()).containsExactly("true");
			assertThat(firstAnswer.chunks()).hasSize(this.chunks.size());
			assertThat(duplicateAnswer.chunks()).isEqualTo(firstAnswer.chunks());
		}
		finally {
			release.countDown();
			threads.shutdownNow();
		}
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void resumesAfterLastEventIdOfARecordedStream() {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));

		List<Event> all = Event.parse(send(null).body());
		HttpResponse<String> resumed = send("2");

		assertThat(resumed.statusCode()).isEqualTo(200);
		assertThat(Event.parse(resumed.body())).containsExactlyElementsOf(all.subList(2, all.size()));
		assertThat(Event.parse(resumed.body())).extracting(Event::sequence).containsExactly(ids(3, this.chunks.size() + 1));
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void resumesAfterLastEventIdOfAStreamStillGoing() throws Exception {
		upstream.streamWith(Duration.ofMillis(10), withDone(this.chunks));
		CountDownLatch release = upstream.holdStreamsAfter(3);

		HttpResponse<InputStream> first = this.http.send(request(null), HttpResponse.BodyHandlers.ofInputStream());
		HttpResponse<InputStream> resumed;
		try (InputStream firstEvents = first.body()) {
			// The first stream has sent its three events before the resume asks for what follows the second.
			readEvents(firstEvents, 3);
			resumed = this.http.send(request("2"), HttpResponse.BodyHandlers.ofInputStream());
			release.countDown();
			firstEvents.readAllBytes();
		}
		finally {
			release.countDown();
		}
		List<Event> resumedEvents;
		try (InputStream body = resumed.body()) {
			resumedEvents = Event.parse(new String(body.readAllBytes(), StandardCharsets.UTF_8));
		}

		assertThat(resumed.statusCode()).isEqualTo(200);
		assertThat(resumedEvents).extracting(Event::sequence).containsExactly(ids(3, this.chunks.size() + 1));
		assertThat(resumedEvents).extracting(Event::data)
			.containsExactly(withDone(this.chunks.subList(2, this.chunks.size())));
		assertThat(upstream.calls()).isEqualTo(1);
	}

	private HttpResponseFor<StreamResponse<ChatCompletionChunk>> createStreaming() {
		return createStreaming(this.client);
	}

	private HttpResponseFor<StreamResponse<ChatCompletionChunk>> createStreaming(OpenAIClient client) {
		ChatCompletionCreateParams params = OpenAiJavaClientTests.params(this.prompt)
			.toBuilder()
			.putAdditionalHeader("Idempotency-Key", this.key)
			.build();
		return client.chat().completions().withRawResponse().createStreaming(params);
	}

	private static List<ChatCompletionChunk> readAll(HttpResponseFor<StreamResponse<ChatCompletionChunk>> response) {
		try (StreamResponse<ChatCompletionChunk> stream = response.parse()) {
			return stream.stream().toList();
		}
	}

	private static String content(List<ChatCompletionChunk> chunks) {
		StringBuilder content = new StringBuilder();
		chunks.forEach((chunk) -> chunk.choices().forEach((choice) -> choice.delta().content().ifPresent(content::append)));
		return content.toString();
	}

	/**
	 * The request the official client sends, through the JDK client: the same API key, key and
	 * (canonically) the same body.
	 */
	private HttpRequest request(String lastEventId) {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/chat/completions"))
			.header("Content-Type", "application/json")
			.header("Authorization", AUTHORIZATION)
			.header("Idempotency-Key", this.key)
			.POST(HttpRequest.BodyPublishers.ofString(GatewayClient.promptRequest(this.prompt, "\"stream\":true")));
		if (lastEventId != null) {
			request.header("Last-Event-ID", lastEventId);
		}
		return request.build();
	}

	private HttpResponse<String> send(String lastEventId) {
		try {
			HttpResponse<String> response = this.http.send(request(lastEventId), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
			assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
					(type) -> assertThat(type).startsWith("text/event-stream"));
			return response;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Gateway call failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	/** Retries until the answer is a replay of the whole recorded stream (it may still be going). */
	private HttpResponse<String> awaitReplayOfTheEnd() {
		HttpResponse<String> response = await().atMost(WAIT).until(() -> send(null), (answer) -> {
			List<Event> events = Event.parse(answer.body());
			boolean ended = !events.isEmpty() && events.get(events.size() - 1).data().equals("[DONE]");
			return ended && answer.headers().firstValue("Idempotent-Replayed").isPresent();
		});
		assertThat(response.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		return response;
	}

	/** Reads until {@code count} events (blank-line terminated) have arrived. */
	private static void readEvents(InputStream in, int count) throws IOException {
		int events = 0;
		int previous = -1;
		int current;
		while (events < count && (current = in.read()) != -1) {
			if (current == '\n' && previous == '\n') {
				events++;
			}
			previous = current;
		}
		assertThat(events).isEqualTo(count);
	}

	private static String chunk(String id, String delta, String finishReason) {
		return "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
				+ "\"model\":\"stub-model\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
				+ finishReason + "}]}";
	}

	private static String[] withDone(List<String> chunks) {
		String[] events = chunks.toArray(new String[chunks.size() + 1]);
		events[chunks.size()] = "[DONE]";
		return events;
	}

	private static String[] ids(int from, int to) {
		String[] ids = new String[to - from + 1];
		for (int i = from; i <= to; i++) {
			ids[i - from] = String.valueOf(i);
		}
		return ids;
	}

	private record Streamed(List<String> replayed, List<ChatCompletionChunk> chunks) {
	}

	/**
	 * One Server-Sent Event as the gateway wrote it.
	 *
	 * @param id its {@code id:} line
	 * @param data its {@code data:} line, the space after the colon removed
	 */
	record Event(String id, String data) {

		/** {@return the place the id names, without the attempt after its dot} */
		String sequence() {
			return (this.id == null || this.id.indexOf('.') < 0) ? this.id : this.id.substring(0, this.id.indexOf('.'));
		}


		static List<Event> parse(String body) {
			List<Event> events = new ArrayList<>();
			for (String block : body.split("\n\n")) {
				String id = null;
				StringBuilder data = null;
				for (String line : block.split("\n")) {
					if (line.startsWith("id:")) {
						id = line.substring(3).strip();
					}
					else if (line.startsWith("data:")) {
						data = (data == null) ? new StringBuilder() : data.append('\n');
						data.append(line.substring(5).strip());
					}
				}
				if (data != null) {
					events.add(new Event(id, data.toString()));
				}
			}
			return events;
		}

	}

}
