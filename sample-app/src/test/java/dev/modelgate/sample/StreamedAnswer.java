package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A streamed answer of the gateway as its client read it: each event's data with the moment it
 * arrived, so that a test can tell a stream that came piece by piece from one that came all at once.
 *
 * @param status the HTTP status
 * @param contentType the {@code Content-Type} header
 * @param cacheStatus the {@code X-ModelGate-Cache} header
 * @param events the events, in order; for an answer that is not a stream, one event with its whole body
 */
record StreamedAnswer(int status, String contentType, String cacheStatus, List<Event> events) {

	static StreamedAnswer read(HttpResponse<Stream<String>> response) {
		String contentType = response.headers().firstValue("Content-Type").orElse("");
		List<Event> events = new ArrayList<>();
		try (Stream<String> lines = response.body()) {
			if (!contentType.startsWith("text/event-stream")) {
				events.add(new Event(String.join("\n", lines.toList()), System.nanoTime()));
			}
			else {
				lines.filter((line) -> line.startsWith("data:"))
					.forEach((line) -> events.add(new Event(line.substring("data:".length()).strip(), System.nanoTime())));
			}
		}
		return new StreamedAnswer(response.statusCode(), contentType,
				response.headers().firstValue("X-ModelGate-Cache").orElse(null), events);
	}

	List<String> data() {
		return this.events.stream().map(Event::data).toList();
	}

	/** The chunks, every event but {@code [DONE]}, as JSON. */
	List<JsonNode> chunks() {
		return data().stream().filter((data) -> !data.equals("[DONE]")).map(JsonMapper.shared()::readTree).toList();
	}

	/** The assistant's reply: the content deltas joined. */
	String content() {
		StringBuilder content = new StringBuilder();
		chunks().forEach((chunk) -> content.append(chunk.path("choices").path(0).path("delta").path("content").asString("")));
		return content.toString();
	}

	/** How long after the first event the last one arrived, in milliseconds. */
	long spreadMillis() {
		return (this.events.get(this.events.size() - 1).arrivedAt() - this.events.get(0).arrivedAt()) / 1_000_000;
	}

	/**
	 * One event.
	 *
	 * @param data its data, the space after {@code data:} removed
	 * @param arrivedAt when the client read it, in {@link System#nanoTime()}
	 */
	record Event(String data, long arrivedAt) {
	}

}
