package dev.modelgate.idempotency.docs;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;

/** Posts an order with an {@code Idempotency-Key} to the guide's application. */
final class GuideClient {

	private final HttpClient client = HttpClient.newHttpClient();

	private final int port;

	GuideClient(int port) {
		this.port = port;
	}

	HttpResponse<String> post(String key) throws IOException, InterruptedException {
		return this.client.send(request(key), HttpResponse.BodyHandlers.ofString());
	}

	CompletableFuture<HttpResponse<String>> postAsync(String key) {
		return this.client.sendAsync(request(key), HttpResponse.BodyHandlers.ofString());
	}

	private HttpRequest request(String key) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders"))
			.header("Idempotency-Key", key)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"book\"}"))
			.build();
	}

}
