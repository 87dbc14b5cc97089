package dev.modelgate.idempotency.benchmarks.stream;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

/**
 * Reads one stream the way a chat client does: sends the request, notes when the first event's
 * bytes arrive and when the stream ends, and checks that every event came.
 */
final class StreamClient {

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	/**
	 * One stream's timings.
	 *
	 * @param firstEventNanos from sending the request to the end of the first event
	 * @param totalNanos from sending the request to the end of the stream
	 */
	record Timing(long firstEventNanos, long totalNanos) {
	}

	/**
	 * Streams {@code events} events, {@code pauseMillis} apart, from {@code path}, with a new key when
	 * {@code keyed}.
	 * @throws IllegalStateException when the stream does not hold {@code events} events
	 */
	Timing stream(int port, String path, int events, long pauseMillis, boolean keyed)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest
			.newBuilder(URI.create(
					"http://127.0.0.1:" + port + path + "?count=" + events + "&pauseMillis=" + pauseMillis))
			.timeout(Duration.ofSeconds(60))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer benchmark")
			.POST(HttpRequest.BodyPublishers.ofString("{\"stream\":true}"));
		if (keyed) {
			request.header("Idempotency-Key", UUID.randomUUID().toString());
		}
		long sent = System.nanoTime();
		HttpResponse<InputStream> response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
		long firstEvent = 0;
		int ends = 0;
		int previous = -1;
		byte[] buffer = new byte[8192];
		try (InputStream body = response.body()) {
			int read;
			while ((read = body.read(buffer)) > 0) {
				for (int i = 0; i < read; i++) {
					if (buffer[i] == '\n' && previous == '\n') {
						ends++;
					}
					previous = buffer[i];
				}
				if (firstEvent == 0 && ends > 0) {
					firstEvent = System.nanoTime();
				}
			}
		}
		long done = System.nanoTime();
		if (response.statusCode() != 200 || ends != events) {
			throw new IllegalStateException(path + " answered " + response.statusCode() + " with " + ends + " events");
		}
		return new Timing(firstEvent - sent, done - sent);
	}

}
