package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
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

	private final RedisTemplate<byte[], byte[]> redis;

	private final ScriptCalls scripts;

	private final RedisRecords records;

	private final @Nullable Duration callTimeLimit;

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
	 * @param callTimeLimit the longest a call may take (see {@link #callTimeLimit()}), or {@code null}
	 * when the caller bounds calls
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix,
			@Nullable Duration callTimeLimit) {
		this(connectionFactory, keyPrefix, callTimeLimit, null);
	}

	/**
	 * @param connectionFactory the Redis to keep records in
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param callTimeLimit the longest a call may take (see {@link #callTimeLimit()}), or {@code null}
	 * when the caller bounds calls
	 * @param acknowledgement how many replicas must acknowledge {@code begin} and {@code complete},
	 * or {@code null} to count them once the primary has them
	 */
	public RedisIdempotencyStore(RedisConnectionFactory connectionFactory, String keyPrefix,
			@Nullable Duration callTimeLimit, @Nullable ReplicaAcknowledgement acknowledgement) {
		this.redis = binaryTemplate(connectionFactory);
		this.records = new RedisRecords(keyPrefix);
		this.callTimeLimit = (acknowledgement != null) ? null : callTimeLimit;
		this.scripts = ScriptCalls.of(connectionFactory, this.redis, this.callTimeLimit);
		this.acknowledged = (acknowledgement != null) ? new AcknowledgedScripts(
				DedicatedConnections.of(connectionFactory, MAX_IDLE_ACKNOWLEDGED_CONNECTIONS), acknowledgement)
				: null;
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		byte[][] args = RedisRecords.beginArgs(fingerprint, token, leaseTtl);
		List<Object> answer;
		if (this.acknowledged == null) {
			answer = execute("begin", this.records.begin, scope, args);
		}
		else {
			Acknowledged<List<Object>> acknowledged = executeAcknowledged("begin", this.records.begin, scope, args);
			answer = acknowledged.answer();
			if (RedisRecords.isAcquired(answer) && !isEnough(acknowledged)) {
				releaseUnacknowledged(scope, token);
				throw unacknowledged("begin", scope, acknowledged, "released; the work must not run");
			}
		}
		return this.records.beginResult(scope, answer);
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return execute("renew", this.records.renew, scope, RedisRecords.renewArgs(token, leaseTtl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return complete(scope, RedisRecords.completeArgs(token, outcome, ttl));
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return complete(scope, RedisRecords.completeArgs(token, outcome, ttl, marker));
	}

	private boolean complete(String scope, byte[][] args) {
		if (this.acknowledged == null) {
			return execute("complete", this.records.complete, scope, args);
		}
		Acknowledged<Boolean> acknowledged = executeAcknowledged("complete", this.records.complete, scope, args);
		boolean completed = Boolean.TRUE.equals(acknowledged.answer());
		if (completed && !isEnough(acknowledged)) {
			throw unacknowledged("complete", scope, acknowledged,
					"recorded on the primary only, so a failover may lose it");
		}
		return completed;
	}

	@Override
	public boolean release(String scope, String token) {
		return execute("release", this.records.release, scope, RedisRecords.releaseArgs(token));
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return this.records.record(scope, execute("find", this.records.find, scope));
	}

	@Override
	public boolean delete(String scope) {
		try {
			Long deleted = this.redis.delete(List.of(this.records.keys(scope)));
			return deleted != null && deleted > 0;
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreException("delete failed on Redis key " + this.records.key(scope), ex);
		}
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return execute("openStream", this.records.openStream, scope, RedisRecords.openStreamArgs(token, head));
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return execute("appendEvents", this.records.appendEvents, scope,
				RedisRecords.appendEventsArgs(token, fromSequence, events));
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return execute("completeStream", this.records.completeStream, scope,
				RedisRecords.completeStreamArgs(token, ttl));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		List<Object> answer = execute("readStream", this.records.readStream, scope,
				RedisRecords.readStreamArgs(afterSequence, max));
		return this.records.slice(scope, answer, afterSequence);
	}

	/** {@return {@code redis}} */
	@Override
	public String type() {
		return "redis";
	}

	/**
	 * The limit given to the store. On Lettuce's shared connection the store keeps it itself: each
	 * call, opening the connection included, waits at most that long on the caller's thread. On Jedis
	 * the client's settings bound a call (the pool's wait, the connect and read timeouts), and the limit
	 * given must cover them. With replica acknowledgements a call can be more than one command and can
	 * open a connection of its own, so no limit is claimed and the caller bounds it.
	 */
	@Override
	public @Nullable Duration callTimeLimit() {
		return this.callTimeLimit;
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
			return this.acknowledged.execute(script, this.records.keys(scope), args);
		}
		catch (DataAccessException ex) {
			throw new IdempotencyStoreException(operation + " failed on Redis key " + this.records.key(scope), ex);
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
			execute("release", this.records.release, scope, RedisRecords.releaseArgs(token));
		}
		catch (IdempotencyStoreException ex) {
			// The begin is refused either way; the lease runs out on its own.
		}
	}

	private IdempotencyStoreException unacknowledged(String operation, String scope, Acknowledged<?> acknowledged,
			String consequence) {
		ReplicaAcknowledgement required = this.acknowledged.acknowledgement();
		return new IdempotencyStoreException(operation + " on Redis key " + this.records.key(scope)
				+ " was acknowledged by " + acknowledged.replicas() + " of the " + required.replicas()
				+ " replicas required within " + required.timeout().toMillis() + "ms; " + consequence);
	}

	/**
	 * Any failure of the call is a store failure (fail closed), whichever client raised it.
	 */
	@SuppressWarnings("unchecked")
	private <T> T execute(String operation, RedisScript<T> script, String scope, byte[]... args) {
		try {
			return (T) this.scripts.run(script, this.records.keys(scope), args);
		}
		catch (RuntimeException ex) {
			throw new IdempotencyStoreException(operation + " failed on Redis key " + this.records.key(scope), ex);
		}
	}

	/** Keys, arguments and answers are raw bytes, so bodies round-trip exactly. */
	private static RedisTemplate<byte[], byte[]> binaryTemplate(RedisConnectionFactory connectionFactory) {
		RedisTemplate<byte[], byte[]> template = new RedisTemplate<>();
		template.setConnectionFactory(connectionFactory);
		template.setDefaultSerializer(RedisSerializer.byteArray());
		template.afterPropertiesSet();
		return template;
	}

}
