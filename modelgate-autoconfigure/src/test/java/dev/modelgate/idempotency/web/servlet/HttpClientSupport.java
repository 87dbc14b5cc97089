package dev.modelgate.idempotency.web.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** Sends real HTTP requests to the test server, including ones a well-behaved client would not. */
final class HttpClientSupport {

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final int port;

	HttpClientSupport(int port) {
		this.port = port;
	}

	/**
	 * The client identity sent unless a test sends its own: the test applications identify clients by
	 * {@code Authorization}, and refuse keyed requests that have none.
	 */
	static final String DEFAULT_AUTHORIZATION = "Bearer test-client";

	HttpResponse<byte[]> post(String path, String key, String contentType, byte[] body, String... headers) {
		HttpRequest.Builder builder = request(path).POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (contentType != null) {
			builder.header("Content-Type", contentType);
		}
		return keyed(builder, key, headers);
	}

	HttpResponse<byte[]> postJson(String path, String key, String json, String... headers) {
		return post(path, key, "application/json", json.getBytes(StandardCharsets.UTF_8), headers);
	}

	HttpResponse<byte[]> get(String path) {
		try {
			return this.client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).build(),
					HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException | InterruptedException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * A {@code GET} with a key and the default client identity unless {@code headers} name another.
	 * @param key the key, or {@code null} for none
	 */
	HttpResponse<byte[]> getKeyed(String path, String key, String... headers) {
		return keyed(request(path).GET(), key, headers);
	}

	private HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + path)).timeout(Duration.ofSeconds(30));
	}

	/** Sends with the key (unless {@code null}), the headers, and the default identity unless they name one. */
	private HttpResponse<byte[]> keyed(HttpRequest.Builder builder, String key, String... headers) {
		if (key != null) {
			builder.header("Idempotency-Key", key);
		}
		boolean identified = false;
		for (int i = 0; i < headers.length; i += 2) {
			builder.header(headers[i], headers[i + 1]);
			identified |= "Authorization".equalsIgnoreCase(headers[i]);
		}
		if (!identified) {
			builder.header("Authorization", DEFAULT_AUTHORIZATION);
		}
		try {
			return this.client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Sends raw header lines (as ISO-8859-1 bytes) over a socket, for headers that HTTP clients
	 * refuse to send, and returns the raw response head and body.
	 */
	String raw(String path, String body, String... headerLines) {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
					+ "Connection: close\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n");
			for (String line : headerLines) {
				head.append(line).append("\r\n");
			}
			head.append("\r\n");
			OutputStream out = socket.getOutputStream();
			out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
			out.write(bytes);
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.ISO_8859_1);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static String text(HttpResponse<byte[]> response) {
		return new String(response.body(), StandardCharsets.UTF_8);
	}

}
