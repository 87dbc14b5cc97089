package dev.modelgate.reliability.support;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the gateway answered to one request, or how the request failed when no answer came (a killed
 * process closes the connection).
 *
 * @param status the HTTP status, or {@code -1} when there was no answer
 * @param headers the response headers (empty when there was no answer)
 * @param body the exact body bytes
 * @param failure why there was no answer, else {@code null}
 * @param sentAt when the request was sent ({@link System#nanoTime()})
 * @param answeredAt when the answer (or the failure) came
 */
public record Answer(int status, HttpHeaders headers, byte[] body, Throwable failure, long sentAt, long answeredAt) {

	private static final JsonMapper json = JsonMapper.builder().build();

	static Answer failed(Throwable failure, long sentAt) {
		return new Answer(-1, HttpHeaders.of(Map.of(), (name, value) -> true), new byte[0], failure, sentAt,
				System.nanoTime());
	}

	/** Whether the gateway sent this from a record ({@code Idempotent-Replayed: true}). */
	public boolean isReplay() {
		return "true".equals(header("Idempotent-Replayed"));
	}

	public String header(String name) {
		return this.headers.firstValue(name).orElse(null);
	}

	/**
	 * The error code of an error answer: {@code error.code} of the sample app's OpenAI-style errors or
	 * {@code code} of an RFC 9457 problem; {@code null} when the body is neither.
	 */
	public String code() {
		JsonNode tree = tree();
		if (tree == null) {
			return null;
		}
		JsonNode code = tree.path("error").path("code");
		if (code.isString()) {
			return code.stringValue();
		}
		return tree.path("code").isString() ? tree.path("code").stringValue() : null;
	}

	/** The body as JSON, or {@code null} when it is not JSON. */
	public JsonNode tree() {
		try {
			return json.readTree(this.body);
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	public String text() {
		return new String(this.body, StandardCharsets.UTF_8);
	}

	/** Milliseconds from send to answer. */
	public long millis() {
		return (this.answeredAt - this.sentAt) / 1_000_000;
	}

	public boolean sameBody(Answer other) {
		return Arrays.equals(this.body, other.body);
	}

	@Override
	public String toString() {
		if (this.status < 0) {
			return "no answer (" + this.failure + ")";
		}
		String text = text();
		return this.status + (isReplay() ? " replayed " : " ") + ((text.length() > 300) ? text.substring(0, 300) + "..." : text);
	}

}
