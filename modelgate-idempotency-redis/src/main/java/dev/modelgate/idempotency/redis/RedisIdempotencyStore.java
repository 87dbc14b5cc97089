package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.StreamUtils;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;
import dev.modelgate.idempotency.redis.AcknowledgedScripts.Acknowledged;

/**
 * An {@link IdempotencyStore} on Redis. Each record is one hash at {@code keyPrefix + scope}, and
 * each transition is one Lua script on that single key, sent as one {@code EVALSHA}: atomic against
 * every other caller, one round trip, and usable on Redis Cluster. Leases and retention are the
 * key's expiry, so an attempt whose holder died simply disappears and the next {@code begin}
 * takes over. Scripts go out on the client's own connection where the factory allows it (Lettuce's
 * shared connection, Jedis's pooled one), not through {@code RedisTemplate}, to save its per-call
 * wrapping.
 * <p>
 * With a {@link ReplicaAcknowledgement}, {@code begin} and {@code complete} also wait for replicas
 * (Redis {@code WAIT}, pipelined after the script on a connection of the store's own). An acquired
 * {@code begin} that too few replicas acknowledged is released and reported as a store failure, so
 * the work does not run on a record that a failover could lose; a {@code complete} that too few
 * acknowledged is reported as a store failure after it was recorded on the primary.
 *
 * <p>A stream is kept in the record's own hash (fields {@code head}, {@code seq} and {@code e:<n>}),
 * not in a second key, so that its scripts too touch one key and it shares the record's expiry.
 */
public class RedisIdempotencyStore implements IdempotencyStore, AutoCloseable {

	/** How many of the store's own connections (for acknowledged writes) stay open between calls. */
	private static final int MAX_IDLE_ACKNOWLEDGED_CONNECTIONS = 64;

	/** Where the Lua scripts are on the class path. */
	static final String SCRIPT_LOCATION = "META-INF/modelgate/scripts/";

	private final RedisTemplate<byte[], byte[]> redis;

	private final ScriptCalls scripts;

	private final String keyPrefix;

	private final RedisScript<List<Object>> beginScript;

	private final RedisScript<Boolean> renewScript;

	private final RedisScript<Boolean> completeScript;

	private final RedisScript<Boolean> releaseScript;

	private final RedisScript<List<Object>> findScript;

	private final RedisStreamScripts streamScripts;

	private final @Nullable Duration commandTimeout;

	private final @Nullable AcknowledgedScripts acknowledged;

	/**
	 * @param connectionFactory the Redis to keep records in
	 * @param keyPrefix put before each scope hash to make the record's key
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix) {
		this(connectionFactory, keyPrefix, null);
	}

	/**
	 * @param connectionFactory the Redis to keep records in
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param commandTimeout the time after which the connection's client gives up on a command (for
	 * Lettuce, {@code spring.data.redis.timeout}), or {@code null} when it is not known
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix,
			@Nullable Duration commandTimeout) {
		this(connectionFactory, keyPrefix, commandTimeout, null);
	}

	/**
	 * @param connectionFactory the Redis to keep records in
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param commandTimeout the time after which the connection's client gives up on a command (for
	 * Lettuce, {@code spring.data.redis.timeout}), or {@code null} when it is not known
	 * @param acknowledgement how many replicas must acknowledge {@code begin} and {@code complete},
	 * or {@code null} to count them once the primary has them
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix,
			@Nullable Duration commandTimeout, @Nullable ReplicaAcknowledgement acknowledgement) {
		this.redis = binaryTemplate(connectionFactory);
		this.keyPrefix = keyPrefix;
		this.commandTimeout = commandTimeout;
		this.scripts = ScriptCalls.of(connectionFactory, this.redis,
				(acknowledgement != null) ? null : commandTimeout);
		this.acknowledged = (acknowledgement != null) ? new AcknowledgedScripts(
				DedicatedConnections.of(connectionFactory, MAX_IDLE_ACKNOWLEDGED_CONNECTIONS), acknowledgement)
				: null;
		this.beginScript = multiBulkScript("begin.lua");
		this.renewScript = RedisScript.of(load("renew.lua"), Boolean.class);
		this.completeScript = RedisScript.of(load("complete.lua"), Boolean.class);
		this.releaseScript = RedisScript.of(load("release.lua"), Boolean.class);
		this.findScript = multiBulkScript("find.lua");
		this.streamScripts = new RedisStreamScripts(RedisScript.of(load("stream_open.lua"), Boolean.class),
				RedisScript.of(load("stream_append.lua"), Boolean.class),
				RedisScript.of(load("stream_complete.lua"), Boolean.class), multiBulkScript("stream_read.lua"));
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		byte[][] args = { bytes(fingerprint), bytes(token), millis(leaseTtl) };
		List<Object> answer;
		if (this.acknowledged == null) {
			answer = execute("begin", this.beginScript, scope, args);
		}
		else {
			Acknowledged<List<Object>> acknowledged = executeAcknowledged("begin", this.beginScript, scope, args);
			answer = acknowledged.answer();
			if ("acquired".equals(text(answer.get(0))) && !isEnough(acknowledged)) {
				releaseUnacknowledged(scope, token);
				throw unacknowledged("begin", scope, acknowledged, "released; the work must not run");
			}
		}
		String outcome = text(answer.get(0));
		return switch (outcome) {
			case "acquired" -> BeginResult.acquired();
			case "mismatch" -> BeginResult.mismatch();
			case "in_progress" -> BeginResult.inProgress();
			case "completed" -> BeginResult.completed((answer.size() > 1) ? storedOutcome(scope, answer) : null);
			default -> throw new IdempotencyStoreException(
					"Unexpected answer '" + outcome + "' to begin on Redis key " + key(scope));
		};
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return execute("renew", this.renewScript, scope, bytes(token), millis(leaseTtl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		byte[][] args = (outcome != null)
				? new byte[][] { bytes(token), millis(ttl), bytes(outcome.kind().code()), outcome.payload() }
				: new byte[][] { bytes(token), millis(ttl) };
		if (this.acknowledged == null) {
			return execute("complete", this.completeScript, scope, args);
		}
		Acknowledged<Boolean> acknowledged = executeAcknowledged("complete", this.completeScript, scope, args);
		boolean completed = Boolean.TRUE.equals(acknowledged.answer());
		if (completed && !isEnough(acknowledged)) {
			throw unacknowledged("complete", scope, acknowledged,
					"recorded on the primary only, so a failover may lose it");
		}
		return completed;
	}

	@Override
	public boolean release(String scope, String token) {
		return execute("release", this.releaseScript, scope, bytes(token));
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		List<Object> answer = execute("find", this.findScript, scope);
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

	@Override
	public boolean delete(String scope) {
		try {
			return Boolean.TRUE.equals(this.redis.delete(bytes(key(scope))));
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreException("delete failed on Redis key " + key(scope), ex);
		}
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return execute("openStream", this.streamScripts.open, scope, bytes(token), head);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		byte[][] args = new byte[events.size() + 2][];
		args[0] = bytes(token);
		args[1] = bytes(Long.toString(fromSequence));
		for (int i = 0; i < events.size(); i++) {
			args[i + 2] = events.get(i);
		}
		return execute("appendEvents", this.streamScripts.append, scope, args);
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return execute("completeStream", this.streamScripts.complete, scope, bytes(token), millis(ttl));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		List<Object> answer = execute("readStream", this.streamScripts.read, scope,
				bytes(Long.toString(afterSequence)), bytes(Integer.toString(max)));
		return RedisStreamScripts.slice(answer, afterSequence, key(scope));
	}

	/**
	 * Each call is one command, so the client's command timeout bounds it (a first connection, made
	 * once, is bounded by the client's connect timeout). With replica acknowledgements a call can be
	 * more than one command (an unacknowledged {@code begin} is also released) and can open a
	 * connection of its own, so no limit is claimed and the caller bounds it.
	 */
	@Override
	public @Nullable Duration callTimeLimit() {
		return (this.acknowledged != null) ? null : this.commandTimeout;
	}

	/** {@return how scripts are sent: the client's own connection or Spring Data's template} */
	String scriptCalls() {
		return this.scripts.describe();
	}

	/** Closes the store's own connections and threads (the connection factory's connections stay). */
	@Override
	public void close() {
		this.scripts.close();
		if (this.acknowledged != null) {
			this.acknowledged.close();
		}
	}

	private <T> Acknowledged<T> executeAcknowledged(String operation, RedisScript<T> script, String scope,
			byte[]... args) {
		try {
			return this.acknowledged.execute(script, bytes(key(scope)), args);
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreException(operation + " failed on Redis key " + key(scope), ex);
		}
	}

	private boolean isEnough(Acknowledged<?> acknowledged) {
		return this.acknowledged.acknowledgement().isMetBy(acknowledged.replicas());
	}

	/**
	 * Best effort: a record left behind holds the key for its lease (retries get 409), never a second
	 * run.
	 */
	private void releaseUnacknowledged(String scope, String token) {
		try {
			execute("release", this.releaseScript, scope, bytes(token));
		}
		catch (IdempotencyStoreException ex) {
			// The begin is refused either way; the lease runs out on its own.
		}
	}

	private IdempotencyStoreException unacknowledged(String operation, String scope, Acknowledged<?> acknowledged,
			String consequence) {
		ReplicaAcknowledgement required = this.acknowledged.acknowledgement();
		return new IdempotencyStoreException(operation + " on Redis key " + key(scope) + " was acknowledged by "
				+ acknowledged.replicas() + " of the " + required.replicas() + " replicas required within "
				+ required.timeout().toMillis() + "ms; " + consequence);
	}

	/**
	 * Any failure of the call is a store failure (fail closed), whichever client raised it.
	 */
	@SuppressWarnings("unchecked")
	private <T> T execute(String operation, RedisScript<T> script, String scope, byte[]... args) {
		try {
			return (T) this.scripts.run(script, bytes(key(scope)), args);
		}
		catch (RuntimeException ex) {
			throw new IdempotencyStoreException(operation + " failed on Redis key " + key(scope), ex);
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

	private String key(String scope) {
		return this.keyPrefix + scope;
	}

	private static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(Object value) {
		return new String((byte[]) value, StandardCharsets.US_ASCII);
	}

	private static byte[] millis(Duration duration) {
		return bytes(Long.toString(duration.toMillis()));
	}

	/** Keys, arguments and answers are raw bytes, so bodies round-trip exactly. */
	private static RedisTemplate<byte[], byte[]> binaryTemplate(RedisConnectionFactory connectionFactory) {
		RedisTemplate<byte[], byte[]> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setDefaultSerializer(RedisSerializer.byteArray());
		template.afterPropertiesSet();
		return template;
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static RedisScript<List<Object>> multiBulkScript(String name) {
		return RedisScript.of(load(name), (Class) List.class);
	}

	/**
	 * Reads the script text once, so executing it never touches the class path again (a
	 * resource-backed script would check the resource for changes on every call).
	 */
	private static String load(String name) {
		ClassPathResource resource = new ClassPathResource(SCRIPT_LOCATION + name,
				RedisIdempotencyStore.class.getClassLoader());
		try (InputStream in = resource.getInputStream()) {
			return StreamUtils.copyToString(in, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read Redis script " + resource, ex);
		}
	}

}
