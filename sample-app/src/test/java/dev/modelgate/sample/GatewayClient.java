package dev.modelgate.sample;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Talks to the running gateway over real HTTP, and builds the chat requests the tests send.
 */
final class GatewayClient {

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final URI endpoint;

	GatewayClient(int port) {
		this.endpoint = URI.create("http://127.0.0.1:" + port + "/v1/chat/completions");
	}

	/** The API key sent when a test does not send one of its own: the gateway identifies clients by it. */
	static final String DEFAULT_AUTHORIZATION = "Bearer sk-sample-tests";

	/**
	 * Posts a JSON body to {@code /v1/chat/completions}, as the client {@link #DEFAULT_AUTHORIZATION}
	 * unless the headers name another {@code Authorization}.
	 * @param body the raw body, sent as is
	 * @param headerNamesAndValues extra headers, as name and value pairs
	 */
	HttpResponse<byte[]> chat(String body, String... headerNamesAndValues) {
		return send(request(body, headerNamesAndValues), HttpResponse.BodyHandlers.ofByteArray());
	}

	/**
	 * A {@code GET} of a path of the gateway (a status resource's {@code Location}), as the client
	 * {@link #DEFAULT_AUTHORIZATION} unless the headers name another {@code Authorization}.
	 * @param path the path
	 * @param headerNamesAndValues headers, as name and value pairs
	 */
	HttpResponse<byte[]> get(String path, String... headerNamesAndValues) {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.endpoint.resolve(path)).GET();
		if (headerNamesAndValues.length > 0) {
			request.headers(headerNamesAndValues);
		}
		if (!namesAuthorization(headerNamesAndValues)) {
			request.header("Authorization", DEFAULT_AUTHORIZATION);
		}
		return send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

	/**
	 * Posts a streaming request, as {@link #chat(String, String...)} does, and reads the answer line by
	 * line as it arrives.
	 */
	StreamedAnswer stream(String body, String... headerNamesAndValues) {
		return StreamedAnswer.read(send(request(body, headerNamesAndValues), HttpResponse.BodyHandlers.ofLines()));
	}

	/**
	 * Posts a request and returns as soon as the answer begins (for a stream: once its first event is
	 * sent), its body still to read.
	 */
	HttpResponse<InputStream> open(String body) {
		return send(request(body), HttpResponse.BodyHandlers.ofInputStream());
	}

	/** Posts a streaming request, reads its first event and closes the connection. */
	void streamFirstEventThenHangUp(String body) {
		try (InputStream events = open(body).body()) {
			events.read();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Gateway stream failed", ex);
		}
	}

	private HttpRequest request(String body, String... headerNamesAndValues) {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.endpoint)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(body));
		if (headerNamesAndValues.length > 0) {
			request.headers(headerNamesAndValues);
		}
		if (!namesAuthorization(headerNamesAndValues)) {
			request.header("Authorization", DEFAULT_AUTHORIZATION);
		}
		return request.build();
	}

	private <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
		try {
			return this.http.send(request, handler);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Gateway call failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	private static boolean namesAuthorization(String... headerNamesAndValues) {
		for (int i = 0; i < headerNamesAndValues.length; i += 2) {
			if ("Authorization".equalsIgnoreCase(headerNamesAndValues[i])) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A valid chat request with a prompt no other test uses, so that answers cached or recorded by one
	 * test never leak into another that shares the application context.
	 * @param extraMembers JSON members added to the request, for example {@code "temperature":0}
	 */
	static String chatRequest(String... extraMembers) {
		return promptRequest("Hello " + UUID.randomUUID(), extraMembers);
	}

	/** A valid chat request with this prompt, see {@link #chatRequest(String...)}. */
	static String promptRequest(String prompt, String... extraMembers) {
		StringBuilder json = new StringBuilder("{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"")
			.append(prompt)
			.append("\"}]");
		for (String member : extraMembers) {
			json.append(',').append(member);
		}
		return json.append('}').toString();
	}

	static String newKey() {
		return UUID.randomUUID().toString();
	}

	static String text(HttpResponse<byte[]> response) {
		return new String(response.body(), StandardCharsets.UTF_8);
	}

	static JsonNode json(HttpResponse<byte[]> response) {
		return JsonMapper.shared().readTree(response.body());
	}

	static String header(HttpResponse<byte[]> response, String name) {
		return response.headers().firstValue(name).orElse(null);
	}

}
