package dev.modelgate.idempotency.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP calls to a test server: the method, the path and header name-value pairs. */
public final class TestHttp {

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final int port;

	public TestHttp(int port) {
		this.port = port;
	}

	public HttpResponse<String> get(String path, String... headers) {
		return send("GET", path, null, headers);
	}

	public HttpResponse<String> delete(String path, String... headers) {
		return send("DELETE", path, null, headers);
	}

	/** A POST with a JSON body and, unless {@code key} is {@code null}, an Idempotency-Key. */
	public HttpResponse<String> post(String path, String key, String json, String... headers) {
		String[] all = headers;
		if (key != null) {
			all = new String[headers.length + 2];
			all[0] = "Idempotency-Key";
			all[1] = key;
			System.arraycopy(headers, 0, all, 2, headers.length);
		}
		return send("POST", path, json, all);
	}

	private HttpResponse<String> send(String method, String path, String json, String... headers) {
		HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, (json != null) ? HttpRequest.BodyPublishers.ofString(json)
					: HttpRequest.BodyPublishers.noBody());
		if (json != null) {
			builder.header("Content-Type", "application/json");
		}
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
		}
		try {
			return this.client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
