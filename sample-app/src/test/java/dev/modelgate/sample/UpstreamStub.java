package dev.modelgate.sample;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An OpenAI-compatible provider on a random local port that counts its calls, so that a test can
 * say how many times the gateway really called upstream. One instance serves the whole test run,
 * which lets every test class that uses it share one application context.
 */
final class UpstreamStub {

	private static final UpstreamStub SHARED = start();

	private final HttpServer server;

	private final AtomicInteger calls = new AtomicInteger();

	private final List<Call> received = new CopyOnWriteArrayList<>();

	private volatile Answer answer;

	private volatile Duration delay = Duration.ZERO;

	private volatile Stream stream;

	private volatile Hold hold;

	private volatile CountDownLatch answersHeld;

	private final AtomicInteger streamsCutOff = new AtomicInteger();

	private UpstreamStub(HttpServer server) {
		this.server = server;
	}

	static UpstreamStub shared() {
		return SHARED;
	}

	private static UpstreamStub start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			UpstreamStub stub = new UpstreamStub(server);
			server.createContext("/v1/chat/completions", stub::handle);
			// Several threads, so that a deliberately slow answer does not hold up the next test.
			server.setExecutor(Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, "upstream-stub");
				thread.setDaemon(true);
				return thread;
			}));
			server.start();
			return stub;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the upstream stub", ex);
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
		this.delay = Duration.ZERO;
		this.stream = null;
		this.hold = null;
		this.answersHeld = null;
		this.streamsCutOff.set(0);
	}

	/** Answers every following call with this status, body and optional header pairs. */
	void answerWith(int status, String body, String... headerNamesAndValues) {
		this.answer = new Answer(status, body, headerNamesAndValues);
	}

	/**
	 * Answers every following call with a {@code text/event-stream} of these events' data, each
	 * written and flushed after {@code pause}; the body then ends, whether the events include
	 * {@code [DONE]} or not.
	 */
	void streamWith(Duration pause, String... events) {
		this.stream = new Stream(pause, List.of(events));
	}

	/**
	 * Makes each following stream stop after its first {@code events} events until the returned latch
	 * is counted down (or 30s pass), so that a test knows the stream is still going while it acts.
	 */
	CountDownLatch holdStreamsAfter(int events) {
		CountDownLatch release = new CountDownLatch(1);
		this.hold = new Hold(events, release);
		return release;
	}

	/**
	 * Makes each following call wait, before it answers, until the returned latch is counted down (or
	 * 30s pass), so that a test knows the call is still running while it acts.
	 */
	CountDownLatch holdAnswers() {
		CountDownLatch release = new CountDownLatch(1);
		this.answersHeld = release;
		return release;
	}

	/** Waits this long before answering each following call. */
	void delayAnswers(Duration delay) {
		this.delay = delay;
	}

	/** How many streams the gateway stopped reading before the stub had written them whole. */
	int streamsCutOff() {
		return this.streamsCutOff.get();
	}

	int calls() {
		return this.calls.get();
	}

	/** The calls received since the last reset, in order. */
	List<Call> received() {
		return List.copyOf(this.received);
	}

	/** How many calls each {@code Idempotency-Key} got ({@code "none"} for calls without one). */
	Map<String, Integer> callsByKey() {
		Map<String, Integer> counts = new LinkedHashMap<>();
		this.received.forEach((call) -> counts.merge((call.idempotencyKey() != null) ? call.idempotencyKey() : "none", 1,
				Integer::sum));
		return counts;
	}

	Call lastCall() {
		return this.received.get(this.received.size() - 1);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange; InputStream body = exchange.getRequestBody()) {
			int number = this.calls.incrementAndGet();
			this.received.add(new Call(exchange.getRequestHeaders().getFirst("Authorization"),
					new String(body.readAllBytes(), StandardCharsets.UTF_8),
					exchange.getRequestHeaders().getFirst("Idempotency-Key")));
			sleep(this.delay);
			CountDownLatch held = this.answersHeld;
			if (held != null) {
				new Hold(0, held).await();
			}
			Stream stream = this.stream;
			if (stream != null) {
				try {
					stream.write(exchange, this.hold);
				}
				catch (IOException ex) {
					this.streamsCutOff.incrementAndGet();
				}
				return;
			}
			Answer answer = (this.answer != null) ? this.answer : Answer.completion(number);
			for (int i = 0; i < answer.headers().length; i += 2) {
				exchange.getResponseHeaders().add(answer.headers()[i], answer.headers()[i + 1]);
			}
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(answer.status(), bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		}
	}

	private static void sleep(Duration delay) {
		try {
			Thread.sleep(delay.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A call the stub received.
	 *
	 * @param authorization its Authorization header
	 * @param body its body
	 * @param idempotencyKey its Idempotency-Key header, or {@code null}
	 */
	record Call(String authorization, String body, String idempotencyKey) {
	}

	private record Stream(Duration pause, List<String> events) {

		void write(HttpExchange exchange, Hold hold) throws IOException {
			exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				int written = 0;
				for (String event : this.events) {
					if (hold != null && written == hold.after()) {
						hold.await();
					}
					sleep(this.pause);
					out.write(("data: " + event + "\n\n").getBytes(StandardCharsets.UTF_8));
					out.flush();
					written++;
				}
			}
		}

	}

	private record Hold(int after, CountDownLatch release) {

		void await() {
			try {
				this.release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	private record Answer(int status, String body, String[] headers) {

		/** A successful completion whose id tells which call produced it. */
		static Answer completion(int number) {
			String body = """
					{"id":"chatcmpl-stub-%d","object":"chat.completion","created":%d,"model":"stub-model",\
					"choices":[{"index":0,"message":{"role":"assistant","content":"Answer %d"},"finish_reason":"stop"}],\
					"usage":{"prompt_tokens":3,"completion_tokens":2,"total_tokens":5}}""".formatted(number,
					1_700_000_000 + number, number);
			return new Answer(200, body, new String[0]);
		}

	}

}
