package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentKey;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * What the blocking {@link RedisIdempotencyStore} and the non-blocking {@link AsyncRedisIdempotencyStore}
 * share, so that both read and write the same records and a fleet can mix them on one Redis: the Lua
 * scripts (each read once), the record's key, each script's arguments and the reading of its answer.
 *
 * <p>Answers are read as the scripts return them through a byte-array codec: bulk strings as
 * {@code byte[]}, integers as {@link Long}.
 */
final class RedisRecords {

	/** Where the Lua scripts are on the class path. */
	static final String SCRIPT_LOCATION = "META-INF/modelgate/scripts/";

	final RedisScript<List<Object>> begin = multiBulkScript("begin.lua");

	final RedisScript<Boolean> renew = script("renew.lua", Boolean.class);

	final RedisScript<Boolean> complete = script("complete.lua", Boolean.class);

	final RedisScript<Boolean> release = script("release.lua", Boolean.class);

	final RedisScript<List<Object>> find = multiBulkScript("find.lua");

	final RedisScript<Boolean> openStream = script("stream_open.lua", Boolean.class);

	final RedisScript<Boolean> appendEvents = script("stream_append.lua", Boolean.class);

	final RedisScript<Boolean> completeStream = script("stream_complete.lua", Boolean.class);

	final RedisScript<List<Object>> readStream = multiBulkScript("stream_read.lua");

	private final String keyPrefix;

	/** @param keyPrefix put before each scope hash to make the record's key */
	RedisRecords(String keyPrefix) {
		this.keyPrefix = keyPrefix;
	}

	String key(String scope) {
		return this.keyPrefix + scope;
	}

	/**
	 * The keys every record script is given: the record's ({@code prefix + scope}) and its spent-key
	 * marker's ({@code prefix + "spent:{" + prefix + scope + "}"}). The marker's hash tag is the
	 * record's key, so that Redis Cluster places both in the record's slot, and it starts with the
	 * prefix, so that the prefix's ACL key pattern covers it.
	 */
	byte[][] keys(String scope) {
		String key = key(scope);
		return new byte[][] { bytes(key), bytes(this.keyPrefix + "spent:{" + key + "}") };
	}

	static byte[][] beginArgs(String fingerprint, String token, Duration leaseTtl) {
		return new byte[][] { bytes(fingerprint), bytes(token), millis(leaseTtl) };
	}

	static byte[][] renewArgs(String token, Duration leaseTtl) {
		return new byte[][] { bytes(token), millis(leaseTtl) };
	}

	static byte[][] completeArgs(String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return (outcome != null)
				? new byte[][] { bytes(token), millis(ttl), bytes(outcome.kind().code()), outcome.payload() }
				: new byte[][] { bytes(token), millis(ttl) };
	}

	static byte[][] completeArgs(String token, @Nullable StoredOutcome outcome, Duration ttl, SpentMarker marker) {
		return new byte[][] { bytes(token), millis(ttl), bytes((outcome != null) ? outcome.kind().code() : ""),
				(outcome != null) ? outcome.payload() : new byte[0], millis(marker.retention()), bytes(marker.status()),
				bytes((marker.resource() != null) ? marker.resource() : "") };
	}

	static byte[][] releaseArgs(String token) {
		return new byte[][] { bytes(token) };
	}

	static byte[][] openStreamArgs(String token, byte[] head) {
		return new byte[][] { bytes(token), head };
	}

	static byte[][] appendEventsArgs(String token, long fromSequence, List<byte[]> events) {
		byte[][] args = new byte[events.size() + 2][];
		args[0] = bytes(token);
		args[1] = bytes(Long.toString(fromSequence));
		for (int i = 0; i < events.size(); i++) {
			args[i + 2] = events.get(i);
		}
		return args;
	}

	static byte[][] completeStreamArgs(String token, Duration ttl) {
		return new byte[][] { bytes(token), millis(ttl) };
	}

	static byte[][] readStreamArgs(long afterSequence, int max) {
		return new byte[][] { bytes(Long.toString(afterSequence)), bytes(Integer.toString(max)) };
	}

	/** {@return whether {@code begin.lua} answered that it acquired the record} */
	static boolean isAcquired(List<Object> answer) {
		return "acquired".equals(text(answer.get(0)));
	}

	/** Reads the answer of {@code begin.lua}. */
	BeginResult beginResult(String scope, List<Object> answer) {
		String outcome = text(answer.get(0));
		return switch (outcome) {
			case "acquired" -> BeginResult.acquired();
			case "mismatch" -> BeginResult.mismatch();
			case "in_progress" -> BeginResult.inProgress();
			case "completed" -> BeginResult.completed((answer.size() > 1) ? storedOutcome(scope, answer) : null);
			case "spent" -> BeginResult.spent(spentKey(scope, answer));
			default -> throw new IdempotencyStoreException(
					"Unexpected answer '" + outcome + "' to begin on Redis key " + key(scope));
		};
	}

	/** Reads the answer of {@code find.lua}. */
	Optional<IdempotencyRecord> record(String scope, List<Object> answer) {
		if (answer.isEmpty()) {
			return Optional.empty();
		}
		try {
			String state = text(answer.get(0));
			Instant now = Instant.ofEpochSecond(Long.parseLong(text(answer.get(5))),
					Long.parseLong(text(answer.get(6))) * 1000);
			String created = text(answer.get(1));
			String kind = text(answer.get(2));
			long ttl = (Long) answer.get(4);
			boolean stored = !kind.isEmpty();
			return Optional.of(new IdempotencyRecord(scope,
					"completed".equals(state) ? IdempotencyRecord.State.COMPLETED
							: IdempotencyRecord.State.IN_PROGRESS,
					created.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(created)),
					(ttl >= 0) ? now.plusMillis(ttl) : null, now, stored ? StoredOutcome.Kind.ofCode(kind) : null,
					stored ? (Long) answer.get(3) : null));
		}
		catch (RuntimeException ex) {
			throw new IdempotencyStoreException("Unreadable record in Redis key " + key(scope), ex);
		}
	}

	/**
	 * Reads the answer of {@code stream_read.lua}.
	 * @param scope the scope hash
	 * @param answer the script's answer
	 * @param afterSequence the sequence the read started after
	 */
	Optional<StreamSlice> slice(String scope, List<Object> answer, long afterSequence) {
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
			throw new IdempotencyStoreException("Unreadable stream in Redis key " + key(scope), ex);
		}
	}

	private SpentKey spentKey(String scope, List<Object> answer) {
		try {
			String resource = new String((byte[]) answer.get(3), StandardCharsets.UTF_8);
			return new SpentKey(new String((byte[]) answer.get(1), StandardCharsets.UTF_8),
					Instant.ofEpochMilli(Long.parseLong(text(answer.get(2)))), resource.isEmpty() ? null : resource);
		}
		catch (RuntimeException ex) {
			throw new IdempotencyStoreException("Unreadable spent-key marker in Redis key " + key(scope), ex);
		}
	}

	private StoredOutcome storedOutcome(String scope, List<Object> answer) {
		String kind = text(answer.get(1));
		try {
			return new StoredOutcome(StoredOutcome.Kind.ofCode(kind), (byte[]) answer.get(2));
		}
		catch (IdempotencyStoreException ex) {
			throw new IdempotencyStoreException("Unreadable outcome kind '" + kind + "' in Redis key " + key(scope), ex);
		}
	}

	/** {@return whether Redis refused the script because it has not cached it (a new or restarted server)} */
	static boolean isNoScript(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getMessage() != null && cause.getMessage().contains("NOSCRIPT")) {
				return true;
			}
		}
		return false;
	}

	static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(Object value) {
		return new String((byte[]) value, StandardCharsets.US_ASCII);
	}

	private static byte[] millis(Duration duration) {
		return bytes(Long.toString(duration.toMillis()));
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static RedisScript<List<Object>> multiBulkScript(String name) {
		return script(name, (Class) List.class);
	}

	private static <T> RedisScript<T> script(String name, Class<T> resultType) {
		String text = load(name);
		return new LoadedScript<>(text, new DefaultRedisScript<>(text, resultType).getSha1(), resultType);
	}

	/**
	 * A script whose text and SHA-1 are read once, when it is loaded: {@code DefaultRedisScript.getSha1()}
	 * takes a lock on every call, which request threads, event loops and scheduler threads would
	 * contend for on every store call (BlockHound caught a scheduler thread parked there).
	 */
	private record LoadedScript<T>(String text, String sha1, Class<T> resultType) implements RedisScript<T> {

		@Override
		public String getSha1() {
			return this.sha1;
		}

		@Override
		public Class<T> getResultType() {
			return this.resultType;
		}

		@Override
		public String getScriptAsString() {
			return this.text;
		}

	}

	/**
	 * Reads the script text once, so executing it never touches the class path again (a
	 * resource-backed script would check the resource for changes on every call).
	 */
	private static String load(String name) {
		ClassPathResource resource = new ClassPathResource(SCRIPT_LOCATION + name, RedisRecords.class.getClassLoader());
		try (InputStream in = resource.getInputStream()) {
			return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read Redis script " + resource, ex);
		}
	}

}
