package dev.modelgate.reliability.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A client of the gateways, as an OpenAI SDK would be: JSON chat requests with an API key and, when
 * asked, an {@code Idempotency-Key}. Never throws for a failed exchange; the {@link Answer} says.
 */
public final class Gateway {

	/** Sent on every request: the gateway scopes keys per {@code Authorization} value. */
	public static final String AUTHORIZATION = "Bearer sk-reliability";

	private final HttpClient client;

	private final Duration timeout;

	public Gateway(Duration timeout) {
		this.client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		this.timeout = timeout;
	}

	public Gateway() {
		this(Duration.ofSeconds(60));
	}

	/**
	 * Posts {@code body} to the app's chat endpoint.
	 * @param key the {@code Idempotency-Key}, or {@code null} for none
	 * @param headerNamesAndValues further headers, as name and value pairs
	 */
	public CompletableFuture<Answer> sendAsync(SampleApp app, String key, String body, String... headerNamesAndValues) {
		return postAsync(app.chatCompletions(), key, body, headerNamesAndValues);
	}

	/**
	 * Posts {@code body} to {@code uri} (of a gateway), with the same headers as the chat requests.
	 * @param key the {@code Idempotency-Key}, or {@code null} for none
	 * @param headerNamesAndValues further headers, as name and value pairs
	 */
	public CompletableFuture<Answer> postAsync(URI uri, String key, String body, String... headerNamesAndValues) {
		HttpRequest.Builder request = HttpRequest.newBuilder(uri)
			.timeout(this.timeout)
			.header("Content-Type", "application/json")
			.header("Authorization", AUTHORIZATION)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		if (headerNamesAndValues.length > 0) {
			request.headers(headerNamesAndValues);
		}
		long sentAt = System.nanoTime();
		return this.client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
			.handle((response, failure) -> (failure != null) ? Answer.failed(unwrap(failure), sentAt)
					: new Answer(response.statusCode(), response.headers(), response.body(), null, sentAt,
							System.nanoTime()));
	}

	public Answer send(SampleApp app, String key, String body, String... headerNamesAndValues) {
		return sendAsync(app, key, body, headerNamesAndValues).join();
	}

	/**
	 * Sends each gateway one keyed request and expects a 200. A gateway's first request opens its
	 * store connection (on a cluster, after discovering the topology) and loads classes: on a busy
	 * machine that can outlast the operation timeout, so that a cold gateway hit by many requests at
	 * once refuses them with 503 (docs/RELIABILITY.md). The scenarios measure gateways in service.
	 */
	public void warmUp(List<SampleApp> apps) {
		for (SampleApp app : apps) {
			String tag = ChatRequests.newTag("warm-up");
			Answer answer = send(app, tag, ChatRequests.request(tag));
			if (answer.status() != 200) {
				throw new IllegalStateException(app + " did not serve its first request: " + answer);
			}
		}
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/** Whether {@code answer} failed because the connection broke (as when the server is killed). */
	public static boolean isConnectionLoss(Answer answer) {
		return answer.status() < 0 && answer.failure() instanceof IOException;
	}

}
