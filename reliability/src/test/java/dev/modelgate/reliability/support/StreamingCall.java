package dev.modelgate.reliability.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * One keyed {@code "stream": true} request, read as it arrives: the bytes so far can be looked at
 * while the gateway still streams, and the call ends when the server closes the stream (or the
 * connection breaks, as when the gateway is killed).
 */
public final class StreamingCall {

	private static final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final ByteArrayOutputStream received = new ByteArrayOutputStream();

	private final CompletableFuture<StreamingCall> done = new CompletableFuture<>();

	private final long startedAt = System.nanoTime();

	private volatile int status = -1;

	private volatile HttpHeaders headers;

	private volatile Throwable failure;

	private volatile long endedAt;

	private StreamingCall() {
	}

	/**
	 * Posts {@code body} with {@code key} to the app and reads the answer on a thread of its own.
	 * @param headerNamesAndValues further headers, as name and value pairs
	 */
	public static StreamingCall start(SampleApp app, String key, String body, String... headerNamesAndValues) {
		HttpRequest.Builder request = HttpRequest.newBuilder(app.chatCompletions())
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Accept", "text/event-stream")
			.header("Authorization", Gateway.AUTHORIZATION)
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headerNamesAndValues.length > 0) {
			request.headers(headerNamesAndValues);
		}
		StreamingCall call = new StreamingCall();
		Thread reader = new Thread(() -> call.run(request.build()), "streaming-call");
		reader.setDaemon(true);
		reader.start();
		return call;
	}

	private void run(HttpRequest request) {
		try {
			HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
			this.headers = response.headers();
			this.status = response.statusCode();
			try (InputStream in = response.body()) {
				byte[] buffer = new byte[8192];
				int read;
				while ((read = in.read(buffer)) != -1) {
					synchronized (this.received) {
						this.received.write(buffer, 0, read);
					}
				}
			}
		}
		catch (IOException ex) {
			this.failure = ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.failure = ex;
		}
		finally {
			this.endedAt = System.nanoTime();
			this.done.complete(this);
		}
	}

	/** Waits until the bytes so far satisfy {@code condition}; fails if the call ends first or times out. */
	public StreamingCall awaitText(Predicate<String> condition, String what, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!condition.test(text())) {
			if (this.done.isDone() && !condition.test(text())) {
				throw new IllegalStateException("The stream ended before " + what + ": " + this);
			}
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("No " + what + " within " + timeout + ": " + this);
			}
			Sleep.millis(20);
		}
		return this;
	}

	/** Waits until it has seen the event with this {@code id}. */
	public StreamingCall awaitEvent(long id, Duration timeout) {
		// Our ids are <sequence>.<attempt tag>.
		return awaitText((text) -> text.contains("id: " + id + ".") || text.contains("id: " + id + "\n"),
				"event " + id, timeout);
	}

	/** Waits for the end of the call (the stream closed or the connection broken). */
	public StreamingCall awaitEnd(Duration timeout) {
		try {
			return this.done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("The stream did not end within " + timeout + ": " + this, ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	public boolean isDone() {
		return this.done.isDone();
	}

	public int status() {
		return this.status;
	}

	public String header(String name) {
		return (this.headers != null) ? this.headers.firstValue(name).orElse(null) : null;
	}

	public boolean isReplay() {
		return "true".equals(header("Idempotent-Replayed"));
	}

	/** The connection broke (or the request failed) instead of the stream closing. */
	public Throwable failure() {
		return this.failure;
	}

	public byte[] bytes() {
		synchronized (this.received) {
			return this.received.toByteArray();
		}
	}

	public String text() {
		return new String(bytes(), StandardCharsets.UTF_8);
	}

	/** The events received, each with its closing blank line, in order. */
	public List<String> events() {
		return events(text());
	}

	/** Splits an event stream into its events, each with its closing blank line. */
	public static List<String> events(String text) {
		List<String> events = new ArrayList<>();
		int start = 0;
		int end;
		while ((end = text.indexOf("\n\n", start)) != -1) {
			events.add(text.substring(start, end + 2));
			start = end + 2;
		}
		if (start < text.length()) {
			events.add(text.substring(start));
		}
		return events;
	}

	/** Whether the stream ended with the provider's {@code [DONE]}. */
	public boolean endsWithDone() {
		List<String> events = events();
		return !events.isEmpty() && events.get(events.size() - 1).contains("data: [DONE]");
	}

	/** The time from the start of the call to its end. */
	public Duration lasted() {
		return Duration.ofNanos(this.endedAt - this.startedAt);
	}

	/** From {@code nanoTime} to the end of the call. */
	public Duration endedAfter(long nanoTime) {
		return Duration.ofNanos(this.endedAt - nanoTime);
	}

	@Override
	public String toString() {
		String text = text();
		return "status " + this.status + (isReplay() ? " (replayed)" : "") + ", " + events(text).size() + " events"
				+ ((this.failure != null) ? ", failed with " + this.failure : "") + ", last: "
				+ text.substring(Math.max(0, text.length() - 300)).replace("\n", "\\n");
	}

}
