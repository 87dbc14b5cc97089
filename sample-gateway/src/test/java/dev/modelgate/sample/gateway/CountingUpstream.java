package dev.modelgate.sample.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible provider on a random local port (the JDK's HTTP server) that counts its
 * calls, so that a test can say how many times the gateway route really called upstream. One
 * instance serves the whole test run, so that the test classes of one store share a context.
 */
final class CountingUpstream {

	private static final CountingUpstream SHARED = start();

	private final HttpServer server;

	private final AtomicInteger calls = new AtomicInteger();

	private final List<Call> received = new CopyOnWriteArrayList<>();

	private volatile Answer answer;

	private volatile Stream stream;

	private volatile CountDownLatch hold;

	private volatile StreamHold streamHold;

	private CountingUpstream(HttpServer server) {
		this.server = server;
	}

	static CountingUpstream shared() {
		return SHARED;
	}

	private static CountingUpstream start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			CountingUpstream upstream = new CountingUpstream(server);
			server.createContext("/v1/chat/completions", upstream::handle);
			// A thread per call, so that a held answer does not hold up the others.
			server.setExecutor(Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, "counting-upstream");
				thread.setDaemon(true);
				return thread;
			}));
			server.start();
			return upstream;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the counting upstream", ex);
		}
	}

	/** The base URL to configure as {@code modelgate.provider.base-url}. */
	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/v1";
	}

	/** Back to answering every call at once with a fresh chat completion, and to zero calls. */
	void reset() {
		this.calls.set(0);
		this.received.clear();
		this.answer = null;
		this.stream = null;
		this.hold = null;
		this.streamHold = null;
	}

	/** Answers every following call with this status and JSON body. */
	void answerWith(int status, String body) {
		this.answer = new Answer(status, body);
	}

	/**
	 * Answers every following call with a {@code text/event-stream} of these events' data, each
	 * written and flushed on its own, with chunked transfer encoding.
	 */
	void streamWith(String... events) {
		this.stream = new Stream(List.of(events));
	}

	/** Makes each following call wait, before it answers, until the returned latch is counted down. */
	CountDownLatch holdAnswers() {
		CountDownLatch release = new CountDownLatch(1);
		this.hold = release;
		return release;
	}

	/**
	 * Makes each following stream stop after its first {@code events} events until the returned latch
	 * is counted down, so that a test knows the stream is still going while it acts.
	 */
	CountDownLatch holdStreamsAfter(int events) {
		CountDownLatch release = new CountDownLatch(1);
		this.streamHold = new StreamHold(events, release);
		return release;
	}

	int calls() {
		return this.calls.get();
	}

	Call lastCall() {
		return this.received.get(this.received.size() - 1);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			int number = this.calls.incrementAndGet();
			this.received.add(new Call(exchange.getRequestURI().getPath(),
					exchange.getRequestHeaders().getFirst("Authorization"),
					exchange.getRequestHeaders().getFirst("Idempotency-Key"),
					new String(body.readAllBytes(), StandardCharsets.UTF_8)));
			CountDownLatch hold = this.hold;
			if (hold != null) {
				await(hold);
			}
			Stream stream = this.stream;
			if (stream != null) {
				stream.write(exchange, this.streamHold);
				return;
			}
			Answer answer = (this.answer != null) ? this.answer : Answer.completion(number);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(answer.status(), bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A call the upstream received.
	 *
	 * @param path the request path
	 * @param authorization its Authorization header
	 * @param idempotencyKey its Idempotency-Key header
	 * @param body its body
	 */
	record Call(String path, String authorization, String idempotencyKey, String body) {
	}

	private record Answer(int status, String body) {

		/** A chat completion whose id tells the calls apart. */
		static Answer completion(int number) {
			return new Answer(200, "{\"id\":\"chatcmpl-upstream-" + number + "\",\"object\":\"chat.completion\","
					+ "\"created\":1700000000,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,"
					+ "\"message\":{\"role\":\"assistant\",\"content\":\"Answer " + number + "\"},"
					+ "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,"
					+ "\"total_tokens\":5}}");
		}

	}

	private record Stream(List<String> events) {

		void write(HttpExchange exchange, StreamHold hold) throws IOException {
			exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				int written = 0;
				for (String event : this.events) {
					if (hold != null && written++ == hold.after()) {
						await(hold.release());
					}
					out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
					out.flush();
				}
			}
		}

	}

	private record StreamHold(int after, CountDownLatch release) {
	}

}
