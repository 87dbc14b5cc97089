package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * The scripts of {@link RedisIdempotencyStore}'s streams, each loaded once, and the reading of
 * {@code stream_read.lua}'s answer. The events are fields of the record's own hash, so every script
 * still touches one key.
 */
final class RedisStreamScripts {

	final RedisScript<Boolean> open;

	final RedisScript<Boolean> append;

	final RedisScript<Boolean> complete;

	final RedisScript<List<Object>> read;

	RedisStreamScripts(RedisScript<Boolean> open, RedisScript<Boolean> append, RedisScript<Boolean> complete,
			RedisScript<List<Object>> read) {
		this.open = open;
		this.append = append;
		this.complete = complete;
		this.read = read;
	}

	/**
	 * Reads the answer of {@code stream_read.lua}.
	 * @param answer the script's answer
	 * @param afterSequence the sequence the read started after
	 * @param key the record's key, for the message of a failure
	 */
	static Optional<StreamSlice> slice(List<Object> answer, long afterSequence, String key) {
		if (answer.isEmpty()) {
			return Optional.empty();
		}
		try {
			StreamSlice.State state = switch (new String((byte[]) answer.get(0), StandardCharsets.US_ASCII)) {
				case "streaming" -> StreamSlice.State.STREAMING;
				case "completed" -> StreamSlice.State.COMPLETED;
				case "not_kept" -> StreamSlice.State.NOT_KEPT;
				default -> throw new IllegalStateException("unknown stream state");
			};
			String attempt = new String((byte[]) answer.get(2), StandardCharsets.UTF_8);
			List<StreamEvent> events = new ArrayList<>(answer.size() - 3);
			for (int i = 3; i < answer.size(); i++) {
				events.add(new StreamEvent(afterSequence + i - 2, (byte[]) answer.get(i)));
			}
			return Optional.of(new StreamSlice((byte[]) answer.get(1), events, state, attempt));
		}
		catch (RuntimeException ex) {
			throw new IdempotencyStoreException("Unreadable stream in Redis key " + key, ex);
		}
	}

}
