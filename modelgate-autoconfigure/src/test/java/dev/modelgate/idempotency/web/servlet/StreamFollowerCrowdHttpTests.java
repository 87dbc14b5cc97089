package dev.modelgate.idempotency.web.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.web.testapp.Invocations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A crowd of duplicates following one live stream on Tomcat with few request threads: followers wait
 * for new events without holding a thread, so unrelated requests are served meanwhile, and
 * {@code stream.max-followers} caps the crowd with a 409; nor does a crowd waiting for the stream to
 * begin. And followers whose clients read nothing, more of them than the filter has follower threads,
 * delay no other follower.
 */
@Tag("boot")
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=memory",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.stream.poll-interval=50ms",
				"modelgate.idempotency.stream.max-followers=" + StreamFollowerCrowdHttpTests.FOLLOWERS,
				"modelgate.idempotency.stream.head-wait=90s",
				// Far fewer request threads than followers: each follower holding one would starve the rest.
				"server.tomcat.threads.max=" + StreamFollowerCrowdHttpTests.REQUEST_THREADS,
				// Room for the large stream of the stalled clients' test.
				"modelgate.idempotency.stream.max-bytes=64MB",
				// A write blocked on a client that reads nothing would wait this long, beyond the test's end.
				"server.tomcat.connection-timeout=10m" })
@Timeout(120)
class StreamFollowerCrowdHttpTests {

	static final int FOLLOWERS = 250;

	static final int REQUEST_THREADS = 16;

	/** Two more than the filter's follower threads (one per core, at least two). */
	private static final int STALLED = Math.max(2, Runtime.getRuntime().availableProcessors()) + 2;

	/** 64 events of 64 KB: far more than a stalled client's socket and the server's can hold. */
	private static final String LARGE_STREAM = "/events?count=64&gateAfter=1&pad=65536";

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	@LocalServerPort
	private int port;

	@Autowired
	private Invocations invocations;

	@Autowired
	private MeterRegistry registry;

	private final List<Socket> stalled = new ArrayList<>();

	@AfterEach
	void openGateAndCloseStalledClients() throws IOException {
		this.invocations.open();
		for (Socket socket : this.stalled) {
			socket.close();
		}
	}

	@Test
	void followersOfALiveStreamHoldNoRequestThreadAndTheOneTooManyGets409() throws Exception {
		this.invocations.reset();
		String key = UUID.randomUUID().toString();
		double attachedBefore = decisions("attached");
		this.invocations.close();
		HttpResponse<InputStream> first = this.client.send(request("/events?count=5&gateAfter=2", key).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		InputStream firstBody = first.body();
		String firstHalf = readUntil(firstBody, "{\"n\":2}\n\n");

		List<CompletableFuture<HttpResponse<byte[]>>> followers = crowd(request("/events?count=5&gateAfter=2", key));
		await("every duplicate attached").atMost(Duration.ofSeconds(60))
			.until(() -> decisions("attached") == attachedBefore + FOLLOWERS);

		// The stream is still held at its gate, every follower waits for its next event: with a thread
		// each, the 16 request threads would all be taken and these would wait for the stream's end.
		List<HttpResponse<String>> unrelated = unrelatedRequests();
		HttpResponse<byte[]> oneTooMany = this.client.send(request("/events?count=5&gateAfter=2", key).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		assertThat(followers).noneMatch(CompletableFuture::isDone);

		this.invocations.open();
		String whole = firstHalf + new String(firstBody.readAllBytes(), StandardCharsets.UTF_8);

		assertThat(unrelated).allSatisfy((response) -> assertThat(response.statusCode()).isEqualTo(200));
		assertThat(oneTooMany.statusCode()).isEqualTo(409);
		assertThat(oneTooMany.headers().firstValue("Retry-After")).isPresent();
		assertThat(new String(oneTooMany.body(), StandardCharsets.UTF_8)).contains("idempotency_request_in_progress");
		for (CompletableFuture<HttpResponse<byte[]>> follower : followers) {
			HttpResponse<byte[]> attached = follower.get(30, TimeUnit.SECONDS);
			assertThat(attached.statusCode()).isEqualTo(200);
			assertThat(attached.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(new String(attached.body(), StandardCharsets.UTF_8)).isEqualTo(whole);
		}
		assertThat(this.invocations.count("events")).isEqualTo(1);

		// The followers left: the next duplicate of another live stream is counted from zero.
		String next = UUID.randomUUID().toString();
		this.invocations.close();
		HttpResponse<InputStream> second = this.client.send(request("/events?count=5&gateAfter=2", next).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		readUntil(second.body(), "{\"n\":2}\n\n");
		CompletableFuture<HttpResponse<byte[]>> follower = this.client.sendAsync(
				request("/events?count=5&gateAfter=2", next).build(), HttpResponse.BodyHandlers.ofByteArray());
		this.invocations.open();
		assertThat(follower.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
		second.body().readAllBytes();
	}

	/**
	 * The same crowd coming before the stream's first event (a model that thinks first): each duplicate
	 * waits for the stream to begin without holding a request thread, then attaches to it.
	 */
	@Test
	void duplicatesWaitingForTheFirstEventHoldNoRequestThread() throws Exception {
		this.invocations.reset();
		String key = UUID.randomUUID().toString();
		double waitedBefore = decisions("waited");
		this.invocations.close();
		String path = "/events?count=3&gateFirst=true";
		CompletableFuture<HttpResponse<byte[]>> first = this.client.sendAsync(request(path, key).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		await().atMost(Duration.ofSeconds(10)).until(() -> this.invocations.count("events-thinking") == 1);

		List<CompletableFuture<HttpResponse<byte[]>>> waiting = crowd(
				request(path, key).header("Accept", "text/event-stream"));
		await("every duplicate waits for the stream").atMost(Duration.ofSeconds(60))
			.until(() -> decisions("waited") == waitedBefore + FOLLOWERS);

		// The first request holds one thread at its gate; with a thread each, the waiting duplicates would
		// take the other 15 and these would wait until stream.head-wait ran out.
		List<HttpResponse<String>> unrelated = unrelatedRequests();
		assertThat(waiting).noneMatch(CompletableFuture::isDone);

		this.invocations.open();
		String whole = new String(first.get(30, TimeUnit.SECONDS).body(), StandardCharsets.UTF_8);
		assertThat(unrelated).allSatisfy((response) -> assertThat(response.statusCode()).isEqualTo(200));
		for (CompletableFuture<HttpResponse<byte[]>> duplicate : waiting) {
			HttpResponse<byte[]> attached = duplicate.get(30, TimeUnit.SECONDS);
			assertThat(attached.statusCode()).isEqualTo(200);
			assertThat(attached.headers().firstValue("Idempotent-Replayed")).hasValue("true");
			assertThat(new String(attached.body(), StandardCharsets.UTF_8)).isEqualTo(whole);
		}
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	/**
	 * Followers of a live stream whose clients read nothing, more of them than the filter has follower
	 * threads: another follower of the same stream still gets every event as it comes, and a stalled
	 * client that starts reading gets the whole stream. Tomcat's write timeout is far beyond the test's,
	 * so a follower thread blocked in a write to a stalled client would hold it for the whole test.
	 */
	@Test
	void followersThatReadNothingDelayNoOtherFollowerAndGetTheWholeStreamOnceTheyRead() throws Exception {
		this.invocations.reset();
		String key = UUID.randomUUID().toString();
		double attachedBefore = decisions("attached");
		this.invocations.close();
		HttpResponse<InputStream> first = this.client.send(request(LARGE_STREAM, key).build(),
				HttpResponse.BodyHandlers.ofInputStream());
		InputStream firstBody = first.body();
		String firstEvent = readUntil(firstBody, "\n\n");

		for (int i = 0; i < STALLED; i++) {
			this.stalled.add(stalledClient(key));
		}
		await("the stalled clients attached").atMost(Duration.ofSeconds(30))
			.until(() -> decisions("attached") == attachedBefore + STALLED);
		CompletableFuture<HttpResponse<byte[]>> reader = this.client.sendAsync(request(LARGE_STREAM, key).build(),
				HttpResponse.BodyHandlers.ofByteArray());
		await("the reading client attached").atMost(Duration.ofSeconds(30))
			.until(() -> decisions("attached") == attachedBefore + STALLED + 1);

		this.invocations.open();
		String whole = firstEvent + new String(firstBody.readAllBytes(), StandardCharsets.UTF_8);
		assertThat(whole).contains("\"n\":64,");

		HttpResponse<byte[]> followed = reader.get(60, TimeUnit.SECONDS);
		assertThat(followed.statusCode()).isEqualTo(200);
		assertThat(followed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(new String(followed.body(), StandardCharsets.UTF_8)).isEqualTo(whole);

		// A stalled client that starts reading gets what it was sent meanwhile, to the stream's end.
		String late = new String(readToEnd(this.stalled.get(0)), StandardCharsets.ISO_8859_1);
		int headEnd = late.indexOf("\r\n\r\n");
		assertThat(late.substring(0, headEnd)).startsWith("HTTP/1.1 200")
			.containsIgnoringCase("Idempotent-Replayed: true")
			.containsIgnoringCase("Transfer-Encoding: chunked");
		assertThat(dechunk(late.substring(headEnd + 4))).isEqualTo(whole);
		assertThat(this.invocations.count("events")).isEqualTo(1);
	}

	/** Sends a duplicate on a socket with a small receive buffer and reads nothing of the answer. */
	private Socket stalledClient(String key) throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(1024);
		socket.connect(new InetSocketAddress("127.0.0.1", this.port), 10_000);
		String body = "{}";
		String head = "POST " + LARGE_STREAM + " HTTP/1.1\r\nHost: 127.0.0.1:" + this.port + "\r\n"
				+ "Content-Type: application/json\r\nAuthorization: Bearer crowd-client\r\nIdempotency-Key: " + key
				+ "\r\nContent-Length: " + body.length() + "\r\nConnection: close\r\n\r\n";
		OutputStream out = socket.getOutputStream();
		out.write((head + body).getBytes(StandardCharsets.US_ASCII));
		out.flush();
		return socket;
	}

	/** Everything the server sends on the connection until it closes it (the stream's end). */
	private static byte[] readToEnd(Socket socket) throws IOException {
		socket.setSoTimeout(60_000);
		ByteArrayOutputStream read = new ByteArrayOutputStream();
		socket.getInputStream().transferTo(read);
		return read.toByteArray();
	}

	/** The body of a chunked HTTP/1.1 response. */
	private static String dechunk(String chunked) {
		StringBuilder body = new StringBuilder();
		int at = 0;
		while (true) {
			int lineEnd = chunked.indexOf("\r\n", at);
			int size = Integer.parseInt(chunked.substring(at, lineEnd).trim(), 16);
			if (size == 0) {
				return body.toString();
			}
			body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
			at = lineEnd + 2 + size + 2;
		}
	}

	/** {@value #FOLLOWERS} copies of {@code request}, sent at once. */
	private List<CompletableFuture<HttpResponse<byte[]>>> crowd(HttpRequest.Builder request) {
		List<CompletableFuture<HttpResponse<byte[]>>> crowd = new ArrayList<>();
		for (int i = 0; i < FOLLOWERS; i++) {
			crowd.add(this.client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray()));
		}
		return crowd;
	}

	/** Three times as many unrelated requests as there are request threads, one after the other. */
	private List<HttpResponse<String>> unrelatedRequests() throws IOException, InterruptedException {
		List<HttpResponse<String>> unrelated = new ArrayList<>();
		for (int i = 0; i < 3 * REQUEST_THREADS; i++) {
			unrelated.add(this.client.send(HttpRequest.newBuilder(URI.create(url("/plain")))
				.timeout(Duration.ofSeconds(20))
				.GET()
				.build(), HttpResponse.BodyHandlers.ofString()));
		}
		return unrelated;
	}

	private double decisions(String outcome) {
		Counter counter = this.registry.find(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", outcome, "endpoint", "/events", "method", "POST")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	private HttpRequest.Builder request(String path, String key) {
		return HttpRequest.newBuilder(URI.create(url(path)))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer crowd-client")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("{}"));
	}

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

}
