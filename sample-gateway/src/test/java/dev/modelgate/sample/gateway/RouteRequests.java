package dev.modelgate.sample.gateway;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** A JSON POST to the gateway, as the route tests' clients send it. */
final class RouteRequests {

	private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	/**
	 * @param port the gateway's port
	 * @param path the path, from {@code /}
	 * @param authorization the client's {@code Authorization}, which the gateway identifies it by
	 * @param key the {@code Idempotency-Key}, or {@code null} for none
	 * @param body the JSON body
	 */
	static HttpResponse<String> post(int port, String path, String authorization, String key, String body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
			.header("Content-Type", "application/json")
			.header("Authorization", authorization)
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (key != null) {
			request.header("Idempotency-Key", key);
		}
		try {
			return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private RouteRequests() {
	}

}
