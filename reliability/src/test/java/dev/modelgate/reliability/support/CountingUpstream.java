package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The OpenAI-compatible provider the gateways call, in the test JVM: it counts every call, by the
 * tag found in the request body ({@code @@tag@@}, see {@link ChatRequests}), and answers each with a
 * completion that names the tag and the call's number, so that an answer tells which request and
 * which execution produced it. A call can be held open to keep a gateway inside the upstream call.
 */
public final class CountingUpstream implements AutoCloseable {

	private static final Pattern TAG = Pattern.compile("@@([A-Za-z0-9_.:-]{1,200})@@");

	private final HttpServer server;

	private final ExecutorService executor;

	private final AtomicInteger calls = new AtomicInteger();

	private final Map<String, AtomicInteger> callsByTag = new ConcurrentHashMap<>();

	private final Map<String, List<String>> keysByTag = new ConcurrentHashMap<>();

	private final Map<String, Hold> holds = new ConcurrentHashMap<>();

	private volatile Duration delay = Duration.ZERO;

	private volatile int streamChunks = 5;

	private volatile Duration streamPause = Duration.ofMillis(100);

	private CountingUpstream(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	public static CountingUpstream start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
			ExecutorService executor = Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, "counting-upstream");
				thread.setDaemon(true);
				return thread;
			});
			CountingUpstream upstream = new CountingUpstream(server, executor);
			server.createContext("/v1/chat/completions", upstream::handle);
			server.setExecutor(executor);
			server.start();
			return upstream;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the upstream stub", ex);
		}
	}

	/** The value for the gateway's {@code modelgate.provider.base-url}. */
	public String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/v1";
	}

	/** Waits this long before each following answer (widens the window in which duplicates overlap). */
	public void delayAnswers(Duration delay) {
		this.delay = delay;
	}

	/**
	 * How a streamed answer (a request with {@code "stream": true}) goes: {@code chunks}
	 * {@code chat.completion.chunk} events, each after {@code pause}, then {@code data: [DONE]}.
	 */
	public void streamChunks(int chunks, Duration pause) {
		this.streamChunks = chunks;
		this.streamPause = pause;
	}

	public int calls() {
		return this.calls.get();
	}

	public int calls(String tag) {
		AtomicInteger count = this.callsByTag.get(tag);
		return (count != null) ? count.get() : 0;
	}

	/**
	 * The {@code Idempotency-Key} of each call for {@code tag}, in order ({@code ""} for a call without one): the
	 * key the gateway derived for its provider call, which must be the same on every run of one request.
	 */
	public List<String> keys(String tag) {
		return List.copyOf(this.keysByTag.getOrDefault(tag, List.of()));
	}

	/** Calls per tag, for every tag called at least once. */
	public Map<String, Integer> callsByTag() {
		Map<String, Integer> snapshot = new ConcurrentHashMap<>();
		this.callsByTag.forEach((tag, count) -> snapshot.put(tag, count.get()));
		return snapshot;
	}

	/** Holds the first call for {@code tag} open until {@link Hold#release()} (later calls pass). */
	public Hold hold(String tag) {
		Hold hold = new Hold();
		this.holds.put(tag, hold);
		return hold;
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange; InputStream in = exchange.getRequestBody()) {
			String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
			Matcher matcher = TAG.matcher(body);
			String tag = matcher.find() ? matcher.group(1) : "";
			int number = this.calls.incrementAndGet();
			this.callsByTag.computeIfAbsent(tag, (t) -> new AtomicInteger()).incrementAndGet();
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			this.keysByTag.computeIfAbsent(tag, (t) -> new CopyOnWriteArrayList<>()).add((key != null) ? key : "");
			Hold hold = this.holds.remove(tag);
			if (hold != null) {
				hold.arrive();
			}
			else if (!this.delay.isZero()) {
				Sleep.of(this.delay);
			}
			if (ChatRequests.isStream(body)) {
				stream(exchange, tag, number);
				return;
			}
			byte[] answer = ChatRequests.completion(tag, number).getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		}
		catch (IOException ex) {
			// The gateway was killed while this call was open: nothing to answer to.
		}
	}

	/** Writes the chunks one by one, flushed, with the pause before each; a killed gateway ends it. */
	private void stream(HttpExchange exchange, String tag, int number) throws IOException {
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		int chunks = this.streamChunks;
		Duration pause = this.streamPause;
		try (OutputStream out = exchange.getResponseBody()) {
			for (int i = 1; i <= chunks; i++) {
				Sleep.of(pause);
				out.write(("data: " + ChatRequests.chunk(tag, number, i, i == chunks) + "\n\n")
					.getBytes(StandardCharsets.UTF_8));
				out.flush();
			}
			out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
			out.flush();
		}
	}

	@Override
	public void close() {
		this.holds.values().forEach(Hold::release);
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	/** A call kept open: the gateway that made it is inside its upstream call until released. */
	public static final class Hold {

		private final CountDownLatch arrived = new CountDownLatch(1);

		private final CountDownLatch released = new CountDownLatch(1);

		private void arrive() {
			this.arrived.countDown();
			try {
				this.released.await(5, TimeUnit.MINUTES);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

		/** Waits until the held call has come in. */
		public void awaitArrival(Duration timeout) {
			try {
				if (!this.arrived.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
					throw new IllegalStateException("The held upstream call did not arrive within " + timeout);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted", ex);
			}
		}

		/** Lets the held call answer. */
		public void release() {
			this.released.countDown();
		}

	}

}
