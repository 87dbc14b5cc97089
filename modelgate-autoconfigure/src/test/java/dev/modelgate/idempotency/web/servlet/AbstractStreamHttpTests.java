package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.web.testapp.CountingStorePostProcessor;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Recorded Server-Sent Events over real HTTP on a real server, with real threads and counts of
 * handler runs; subclasses choose the store.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.operation-timeout=10s", "modelgate.idempotency.stream.max-events=20",
				"modelgate.idempotency.stream.poll-interval=50ms" })
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
abstract class AbstractStreamHttpTests {

	private static final String AUTHORIZATION = "Bearer stream-client";

	private static final Pattern ATTEMPT_TAG = Pattern.compile("(?m)^id: (\\d+)\\.[A-Za-z0-9_-]{8}$");

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	@Autowired
	private MeterRegistry registry;

	@BeforeEach
	void resetCounts() {
		this.invocations.reset();
	}

	@AfterEach
	void openGate() {
		this.invocations.open();
	}

	@Test
	void eventsCarryTheirSequenceAsIdAndRetryAfterTheEndReplaysTheSameBytes() {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post("/events?count=5", key);
		HttpResponse<byte[]> replay = post("/events?count=5", key);

		assertThat(this.invocations.count("events")).isEqualTo(1);
		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(text(first)).isEqualTo(events(1, 5));
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(replay.statusCode()).isEqualTo(200);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
	}

	@Test
	void recordingCostsAtMostOneStoreWritePerEventAndAReplayOneRead() {
		String key = UUID.randomUUID().toString();
		Map<String, Integer> before = streamCalls();
		post("/events?count=5", key);
		Map<String, Integer> recorded = streamCalls();
		post("/events?count=5", key);
		Map<String, Integer> replayed = streamCalls();

		assertThat(recorded.get("openStream") - before.get("openStream")).isEqualTo(1);
		// One append per flush: five sends, fewer when Spring MVC sends the early ones in one flush.
		assertThat(recorded.get("appendEvents") - before.get("appendEvents")).isBetween(1, 5);
		assertThat(recorded.get("completeStream") - before.get("completeStream")).isEqualTo(1);
		assertThat(recorded.get("readStream") - before.get("readStream")).isZero();
		assertThat(replayed.get("readStream") - recorded.get("readStream")).isEqualTo(1);
		assertThat(replayed.get("appendEvents") - recorded.get("appendEvents")).isZero();
	}

	@Test
	void recordedStreamIsMeteredByOutcomeEventsBytesStoreWritesAndTimeToFirstEvent() {
		String key = UUID.randomUUID().toString();
		double recorded = decisions("stream_recorded");
		double replayed = decisions("stream_replayed");
		double resumed = decisions("stream_resumed");
		DistributionSummary events = summary(MicrometerIdempotencyListener.STREAM_EVENTS);
		DistributionSummary bytes = summary(MicrometerIdempotencyListener.STREAM_BYTES);
		long appends = events.count();
		double eventsAppended = events.totalAmount();
		double bytesAppended = bytes.totalAmount();
		long firstEvents = firstEvent().count();
		int appendCalls = streamCalls().get("appendEvents");

		HttpResponse<byte[]> first = post("/events?count=5", key);
		await().atMost(Duration.ofSeconds(10)).until(() -> decisions("stream_recorded") == recorded + 1);
		post("/events?count=5", key);
		post("/events?count=5", key, "Last-Event-ID", "2");

		assertThat(events.totalAmount() - eventsAppended).isEqualTo(5);
		assertThat(bytes.totalAmount() - bytesAppended).as("the bytes sent, id lines included")
			.isEqualTo(first.body().length);
		assertThat(events.count() - appends).as("one sample per store write")
			.isEqualTo(streamCalls().get("appendEvents") - appendCalls);
		assertThat(firstEvent().count()).isEqualTo(firstEvents + 1);
		assertThat(firstEvent().max(TimeUnit.NANOSECONDS)).isPositive();
		await().atMost(Duration.ofSeconds(10)).until(() -> decisions("stream_replayed") == replayed + 2);
		assertThat(decisions("stream_resumed")).isEqualTo(resumed + 1);
	}

	@Test
	void lastEventIdResumesRightAfterThatEvent() {
		String key = UUID.randomUUID().toString();
		post("/events?count=5", key);
		for (int seen = 0; seen <= 5; seen++) {
			HttpResponse<byte[]> resumed = post("/events?count=5", key, "Last-Event-ID", Integer.toString(seen));
			assertThat(text(resumed)).isEqualTo((seen < 5) ? events(seen + 1, 5) : "");
		}
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	/**
	 * Every event's id names its attempt as well as its place: a {@code Last-Event-ID} of another
	 * attempt (the key was taken over since) is not resumed with this attempt's events, which would
	 * splice two generations; one of this attempt resumes after its place.
	 */
	@Test
	void lastEventIdNamesTheAttemptAndAnotherAttemptsIdIsNotResumed() {
		String key = UUID.randomUUID().toString();
		String first = new String(post("/events?count=5", key).body(), StandardCharsets.UTF_8);
		Matcher ids = ATTEMPT_TAG.matcher(first);
		List<String> tags = new java.util.ArrayList<>();
		while (ids.find()) {
			tags.add(ids.group().substring(ids.group().indexOf('.') + 1));
		}
		assertThat(tags).hasSize(5);
		String tag = tags.get(0);
		assertThat(tags).containsOnly(tag);

		HttpResponse<byte[]> sameAttempt = post("/events?count=5", key, "Last-Event-ID", "2." + tag);
		HttpResponse<byte[]> otherAttempt = post("/events?count=5", key, "Last-Event-ID",
				"2." + (tag.equals("AAAAAAAA") ? "BBBBBBBB" : "AAAAAAAA"));

		assertThat(text(sameAttempt)).isEqualTo(events(3, 5));
		assertThat(otherAttempt.statusCode()).isEqualTo(200);
		assertThat(text(otherAttempt)).doesNotContain("data:{").startsWith("event: error\n")
			.contains("\"code\":\"idempotency_stream_interrupted\"");
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	@Test
	void clientThatDisconnectsMidStreamGetsTheWholeAnswerOnRetryFromOneRun() throws Exception {
		String key = UUID.randomUUID().toString();
		this.invocations.close();
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("POST /events?count=5&gateAfter=2 HTTP/1.1\r\nHost: localhost\r\nAuthorization: " + AUTHORIZATION
					+ "\r\nIdempotency-Key: " + key + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
				.getBytes(StandardCharsets.ISO_8859_1));
			out.flush();
			readUntil(socket.getInputStream(), "{\"n\":2}");
		}
		this.invocations.open();
		HttpResponse<byte[]> retry = awaitCompleted(key, "/events?count=5&gateAfter=2");

		assertThat(text(retry)).isEqualTo(events(1, 5));
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("events")).isEqualTo(1);
		// The generation ran to its end: no send was refused because the client went away.
		assertThat(this.invocations.count("events-sent")).isEqualTo(5);
	}

	@Test
	void duplicateWhileStreamingAttachesAndReceivesTheSameEventsFromOneRun() throws Exception {
		String key = UUID.randomUUID().toString();
		double attachedBefore = decisions("attached");
		this.invocations.close();
		HttpResponse<InputStream> first = this.client.send(request("/events?count=5&gateAfter=2", key).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		InputStream firstBody = first.body();
		String firstHalf = readUntil(firstBody, "{\"n\":2}\n\n");
		int readsBefore = streamCalls().get("readStream");
		CompletableFuture<HttpResponse<byte[]>> duplicate = this.client.sendAsync(
				request("/events?count=5&gateAfter=2", key).build(), HttpResponse.BodyHandlers.ofByteArray());
		awaitFollowing(readsBefore);
		assertThat(duplicate).isNotDone();
		this.invocations.open();
		String whole = firstHalf + new String(firstBody.readAllBytes(), StandardCharsets.UTF_8);
		HttpResponse<byte[]> attached = duplicate.get(10, TimeUnit.SECONDS);

		assertThat(withoutAttempt(whole)).isEqualTo(events(1, 5));
		assertThat(attached.statusCode()).isEqualTo(200);
		assertThat(attached.body()).isEqualTo(whole.getBytes(StandardCharsets.UTF_8));
		assertThat(attached.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.invocations.count("events")).isEqualTo(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> decisions("attached") == attachedBefore + 1);
	}

	@Test
	void streamThatFailsIsReleasedAndItsFollowerIsToldSo() throws Exception {
		String key = UUID.randomUUID().toString();
		this.invocations.close();
		HttpResponse<InputStream> first = this.client.send(
				request("/events?count=3&gateAfter=2&fail=true", key).build(), HttpResponse.BodyHandlers.ofInputStream());
		readUntil(first.body(), "{\"n\":2}\n\n");
		int readsBefore = streamCalls().get("readStream");
		CompletableFuture<HttpResponse<byte[]>> follower = this.client.sendAsync(
				request("/events?count=3&gateAfter=2&fail=true", key).build(), HttpResponse.BodyHandlers.ofByteArray());
		awaitFollowing(readsBefore);
		this.invocations.open();
		drainFailed(first.body());
		String followed = text(follower.get(10, TimeUnit.SECONDS));

		assertThat(followed).startsWith(events(1, 2));
		assertThat(followed).contains("event: error\ndata: {\"code\":\"idempotency_stream_interrupted\"");
		HttpResponse<InputStream> retry = this.client.send(request("/events?count=3&gateAfter=2&fail=true", key).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		drainFailed(retry.body());
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.invocations.count("events")).isEqualTo(2);
	}

	@Test
	void streamOverTheEventLimitIsDeliveredWholeAndRetriesGet410() {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post("/events?count=25", key);
		HttpResponse<byte[]> retry = post("/events?count=25", key);

		assertThat(text(first)).startsWith(events(1, 20)).contains("{\"n\":25}");
		assertThat(retry.statusCode()).isEqualTo(410);
		assertThat(text(retry)).contains("idempotency_result_unavailable");
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	@Test
	void endpointThatOptsOutOfAttachingAnswers409WhileStreaming() throws Exception {
		String key = UUID.randomUUID().toString();
		this.invocations.close();
		HttpResponse<InputStream> first = this.client.send(request("/events-no-attach", key).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		readUntil(first.body(), "{\"n\":1}\n\n");
		HttpResponse<byte[]> duplicate = post("/events-no-attach", key);
		this.invocations.open();
		first.body().readAllBytes();

		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	/**
	 * A retry that comes while the first request has not begun its stream (a model that thinks before
	 * its first token) and asks for {@code text/event-stream} waits for the stream and attaches, rather
	 * than getting 409 until the client gives up.
	 */
	@Test
	void duplicateThatAsksForTheStreamBeforeItBeginsWaitsForItAndAttaches() throws Exception {
		String key = UUID.randomUUID().toString();
		double waitedBefore = decisions("waited");
		double followedBefore = decisions("attached") + decisions("stream_replayed");
		this.invocations.close();
		CompletableFuture<HttpResponse<byte[]>> first = this.client.sendAsync(
				request("/events?count=3&gateFirst=true", key).build(), HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("events-thinking") == 1);
		CompletableFuture<HttpResponse<byte[]>> duplicate = this.client.sendAsync(
				request("/events?count=3&gateFirst=true", key, "Accept", "text/event-stream").build(),
				HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> decisions("waited") == waitedBefore + 1);
		assertThat(duplicate).as("waiting for the stream to begin").isNotDone();
		this.invocations.open();
		HttpResponse<byte[]> firstResponse = first.get(10, TimeUnit.SECONDS);
		HttpResponse<byte[]> attached = duplicate.get(10, TimeUnit.SECONDS);

		assertThat(text(firstResponse)).isEqualTo(events(1, 3));
		assertThat(attached.statusCode()).isEqualTo(200);
		assertThat(attached.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(text(attached)).isEqualTo(text(firstResponse));
		assertThat(this.invocations.count("events")).isEqualTo(1);
		// Attached to the live stream, or, when it had ended by the duplicate's next look, replayed.
		await().atMost(Duration.ofSeconds(10))
			.until(() -> decisions("attached") + decisions("stream_replayed") == followedBefore + 1);
	}

	/**
	 * A retry waiting for the stream to begin, when the first request fails before its first event
	 * (the key is released): the retry runs the request itself and gets the first answer, not a 409.
	 */
	@Test
	void duplicateWaitingForTheStreamRunsTheRequestWhenTheFirstFailsBeforeItBegins() throws Exception {
		String key = UUID.randomUUID().toString();
		double waitedBefore = decisions("waited");
		this.invocations.close();
		String path = "/events?count=3&gateFirst=true&failFirstRun=true";
		CompletableFuture<HttpResponse<byte[]>> first = this.client.sendAsync(request(path, key).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("events-thinking") == 1);
		CompletableFuture<HttpResponse<byte[]>> duplicate = this.client.sendAsync(
				request(path, key, "Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> decisions("waited") == waitedBefore + 1);
		this.invocations.open();

		assertThat(first.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(500);
		HttpResponse<byte[]> ran = duplicate.get(10, TimeUnit.SECONDS);
		assertThat(ran.statusCode()).isEqualTo(200);
		assertThat(ran.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(text(ran)).isEqualTo(events(1, 3));
		assertThat(this.invocations.count("events-thinking")).isEqualTo(2);
		assertThat(this.invocations.count("events")).isEqualTo(1);
		HttpResponse<byte[]> replay = post(path, key);
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(text(replay)).isEqualTo(events(1, 3));
	}

	/** A duplicate that does not ask for a stream keeps the 409 while the first has not begun its stream. */
	@Test
	void duplicateThatDoesNotAskForTheStreamIsAnswered409BeforeItBegins() throws Exception {
		String key = UUID.randomUUID().toString();
		this.invocations.close();
		CompletableFuture<HttpResponse<byte[]>> first = this.client.sendAsync(
				request("/events?count=3&gateFirst=true", key).build(), HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("events-thinking") == 1);
		HttpResponse<byte[]> duplicate = post("/events?count=3&gateFirst=true", key, "Accept", "application/json");
		this.invocations.open();
		first.get(10, TimeUnit.SECONDS);

		assertThat(duplicate.statusCode()).isEqualTo(409);
		assertThat(duplicate.headers().firstValue("Retry-After")).isPresent();
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	/**
	 * The other ways Spring MVC answers with events: a {@code StreamingResponseBody} or a
	 * {@code ResponseBodyEmitter} in a {@code text/event-stream} response, and a
	 * {@code Flux<ServerSentEvent>} from an MVC controller. Each is recorded with ids, replayed byte for
	 * byte and resumed after a {@code Last-Event-ID}, from one run.
	 */
	@ParameterizedTest
	@ValueSource(strings = { "/events-body", "/events-emitter", "/events-flux" })
	void everyKindOfEventStreamIsRecordedWithIdsReplayedAndResumed(String path) {
		String key = UUID.randomUUID().toString();
		String name = path.substring(1);
		HttpResponse<byte[]> first = post(path + "?count=5", key);
		HttpResponse<byte[]> replay = post(path + "?count=5", key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("text/event-stream"));
		assertThat(text(first)).isEqualTo(events(1, 5));
		assertThat(first.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(replay.statusCode()).isEqualTo(200);
		assertThat(replay.body()).isEqualTo(first.body());
		assertThat(replay.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(replay.headers().firstValue("Content-Type")).isEqualTo(first.headers().firstValue("Content-Type"));
		for (int seen = 0; seen <= 5; seen++) {
			HttpResponse<byte[]> resumed = post(path + "?count=5", key, "Last-Event-ID", Integer.toString(seen));
			assertThat(resumed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(text(resumed)).isEqualTo((seen < 5) ? events(seen + 1, 5) : "");
		}
		assertThat(this.invocations.count(name)).isEqualTo(1);
	}

	/** A {@code StreamingResponseBody} of octets and a {@code DeferredResult}: not events, not recorded. */
	@ParameterizedTest
	@ValueSource(strings = { "/octets", "/deferred" })
	void asynchronousResponseThatIsNotEventsPassesThroughAndReleasesTheKeyWithAWarning(String path,
			CapturedOutput output) {
		String key = UUID.randomUUID().toString();
		String name = path.substring(1);
		HttpResponse<byte[]> first = post(path, key);
		HttpResponse<byte[]> retry = post(path, key);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(text(first)).isEqualTo(name);
		assertThat(first.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).doesNotStartWith("text/event-stream"));
		assertThat(text(retry)).isEqualTo(name);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.invocations.count(name)).as("the key was released: the retry ran the handler")
			.isEqualTo(2);
		await().atMost(Duration.ofSeconds(10))
			.until(() -> output.getOut().contains("WARN")
					&& output.getOut().contains("released: the response is streamed or asynchronous"));
	}

	/** The bytes of events {@code from} to {@code to} as the test controller sends them, with their ids. */
	private static String events(int from, int to) {
		StringBuilder events = new StringBuilder();
		for (int i = from; i <= to; i++) {
			events.append("id: ").append(i).append("\nevent:chunk\ndata:{\"n\":").append(i).append("}\n\n");
		}
		return events.toString();
	}

	private double decisions(String outcome) {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", outcome, "endpoint", "/events", "method", "POST")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	/** The summary, registered now if nothing was recorded under it yet. */
	private DistributionSummary summary(String name) {
		return DistributionSummary.builder(name).tags("endpoint", "/events", "method", "POST").register(this.registry);
	}

	private Timer firstEvent() {
		return Timer.builder(MicrometerIdempotencyListener.STREAM_FIRST_EVENT)
			.tags("endpoint", "/events", "method", "POST")
			.register(this.registry);
	}

	private static Map<String, Integer> streamCalls() {
		Map<String, Integer> calls = new HashMap<>();
		for (String method : List.of("openStream", "appendEvents", "completeStream", "readStream")) {
			AtomicInteger count = CountingStorePostProcessor.STREAM_CALLS.get(method);
			calls.put(method, (count != null) ? count.get() : 0);
		}
		return calls;
	}

	/** Waits until a duplicate read the recorded stream: it follows the stream, attached to its run. */
	private static void awaitFollowing(int readsBefore) {
		await("the duplicate reads the stream").atMost(Duration.ofSeconds(10))
			.until(() -> streamCalls().get("readStream") > readsBefore);
	}

	/** Retries until the stream is recorded whole (the first run ends on its own thread). */
	private HttpResponse<byte[]> awaitCompleted(String key, String path) {
		return await().atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> post(path, key), (response) -> text(response).endsWith(events(5, 5)));
	}

	private HttpRequest.Builder request(String path, String key, String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Authorization", AUTHORIZATION)
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("{}"));
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
		}
		return builder;
	}

	private HttpResponse<byte[]> post(String path, String key, String... headers) {
		try {
			return this.client.send(request(path, key, headers).build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/** Reads a failed stream to its end: the server may close the connection instead of ending it. */
	private static void drainFailed(InputStream in) {
		try {
			in.readAllBytes();
		}
		catch (IOException ex) {
			// Spring MVC ends a committed response whose handler failed by closing the connection.
		}
	}

	/** Reads until {@code marker} was read, and returns what was read. */
	private static String readUntil(InputStream in, String marker) throws IOException {
		StringBuilder read = new StringBuilder();
		while (read.indexOf(marker) < 0) {
			int next = in.read();
			if (next < 0) {
				throw new IllegalStateException("Stream ended before '" + marker + "': " + read);
			}
			read.append((char) next);
		}
		return read.toString();
	}

	/** The body, with its ids' attempt tags left out: every stream here is one key's single attempt. */
	private static String text(HttpResponse<byte[]> response) {
		return withoutAttempt(new String(response.body(), StandardCharsets.UTF_8));
	}

	/** {@code id: 3.Ab-Cd_12} as {@code id: 3}. */
	private static String withoutAttempt(String events) {
		return ATTEMPT_TAG.matcher(events).replaceAll("id: $1");
	}

}
