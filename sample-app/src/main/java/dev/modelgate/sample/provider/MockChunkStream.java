package dev.modelgate.sample.provider;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The mock provider's reply as OpenAI streams it: a chunk with the assistant's role, one chunk per
 * word, a chunk with {@code finish_reason: "stop"}, a chunk with the usage and no choices when the
 * client asked for it, then {@code [DONE]}, with a pause before each word so that a client sees the
 * answer arrive piece by piece.
 */
final class MockChunkStream implements ChunkStream {

	/** A word with the white space before it, so that the deltas add up to the reply exactly. */
	private static final Pattern WORD = Pattern.compile("\\s*\\S+|\\s+$");

	private final List<String> events;

	private final int words;

	private final Duration delay;

	/** Counted down on close, which also cuts a pause short: the stream ends as soon as it is closed. */
	private final CountDownLatch closed = new CountDownLatch(1);

	/**
	 * @param jsonMapper writes the chunks
	 * @param completion the completion's {@code id}, {@code created} and {@code model}
	 * @param reply the assistant's whole reply
	 * @param usage the usage to send in a chunk of its own, or {@code null} for none
	 * @param delay the pause before each word
	 */
	MockChunkStream(JsonMapper jsonMapper, Completion completion, String reply, ObjectNode usage, Duration delay) {
		this.events = events(jsonMapper, completion, reply, usage);
		this.words = (int) WORD.matcher(reply).results().count();
		this.delay = delay;
	}

	private static List<String> events(JsonMapper jsonMapper, Completion completion, String reply,
			ObjectNode usage) {
		List<String> events = new ArrayList<>();
		ObjectNode role = completion.chunk(jsonMapper);
		role.withArray("choices").addObject().put("index", 0).putNull("finish_reason").putObject("delta")
			.put("role", "assistant").put("content", "");
		events.add(jsonMapper.writeValueAsString(role));
		Matcher words = WORD.matcher(reply);
		while (words.find()) {
			ObjectNode word = completion.chunk(jsonMapper);
			word.withArray("choices").addObject().put("index", 0).putNull("finish_reason").putObject("delta")
				.put("content", words.group());
			events.add(jsonMapper.writeValueAsString(word));
		}
		ObjectNode stop = completion.chunk(jsonMapper);
		ObjectNode choice = stop.withArray("choices").addObject().put("index", 0);
		choice.putObject("delta");
		choice.put("finish_reason", "stop");
		events.add(jsonMapper.writeValueAsString(stop));
		if (usage != null) {
			ObjectNode usageChunk = completion.chunk(jsonMapper);
			usageChunk.putArray("choices");
			usageChunk.set("usage", usage);
			events.add(jsonMapper.writeValueAsString(usageChunk));
		}
		events.add(DONE);
		return events;
	}

	@Override
	public void forEach(EventSink sink) throws IOException {
		for (int i = 0; i < this.events.size() && !isClosed(); i++) {
			if (i > 0 && i <= this.words) {
				pause();
			}
			if (!isClosed()) {
				sink.send(this.events.get(i));
			}
		}
	}

	private void pause() {
		try {
			this.closed.await(this.delay.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			close();
		}
	}

	private boolean isClosed() {
		return this.closed.getCount() == 0;
	}

	@Override
	public void close() {
		this.closed.countDown();
	}

	/**
	 * What every chunk of one streamed completion shares.
	 *
	 * @param id the completion's id
	 * @param created when it was made, in epoch seconds
	 * @param model the model the client asked for
	 */
	record Completion(String id, long created, String model) {

		ObjectNode chunk(JsonMapper jsonMapper) {
			ObjectNode chunk = jsonMapper.createObjectNode();
			chunk.put("id", this.id);
			chunk.put("object", "chat.completion.chunk");
			chunk.put("created", this.created);
			chunk.put("model", this.model);
			return chunk;
		}

	}

}
