package dev.modelgate.idempotency.redis;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link AsyncIdempotencyStore} on Redis through Spring Data Redis's reactive connection: the same
 * Lua scripts, keys and record layout as {@link RedisIdempotencyStore}, so both stores can share one
 * Redis (standalone, Sentinel or Cluster) and a fleet can mix them. Each transition is one
 * {@code EVALSHA} (an {@code EVAL} when the server has not cached the script yet) and no thread waits
 * for its answer.
 *
 * <p>Each call is bounded by the operation timeout: one that is not answered in time, or that Redis
 * refuses, completes with an {@link IdempotencyStoreException}. The futures complete on the client's
 * I/O thread (Reactor's parallel scheduler on a timeout), so what follows them must not block.
 *
 * <p>The first call asks the connection factory for its connection on Reactor's bounded-elastic
 * scheduler, since Spring Data Redis opens its shared connection there and then, blocking; later calls
 * ask for it on the calling thread, where it is already open. There are no replica acknowledgements
 * ({@code WAIT}): an application that needs them uses the blocking store.
 */
public class ReactiveRedisIdempotencyStore implements AsyncIdempotencyStore {

	private final ReactiveRedisConnectionFactory connectionFactory;

	private final RedisRecords records;

	private final Duration operationTimeout;

	private volatile boolean connected;

	/**
	 * @param connectionFactory the Redis to keep records in
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param operationTimeout how long a call may take before it fails, positive
	 */
	public ReactiveRedisIdempotencyStore(ReactiveRedisConnectionFactory connectionFactory, String keyPrefix,
			Duration operationTimeout) {
		if (operationTimeout.isNegative() || operationTimeout.isZero()) {
			throw new IllegalArgumentException("operationTimeout must be positive, not " + operationTimeout);
		}
		this.connectionFactory = connectionFactory;
		this.records = new RedisRecords(keyPrefix);
		this.operationTimeout = operationTimeout;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return execute("begin", this.records.begin, scope, () -> RedisRecords.beginArgs(fingerprint, token, leaseTtl),
				(answer) -> this.records.beginResult(scope, list(answer)));
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		return execute("renew", this.records.renew, scope, () -> RedisRecords.renewArgs(token, leaseTtl),
				ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return execute("complete", this.records.complete, scope, () -> RedisRecords.completeArgs(token, outcome, ttl),
				ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		return execute("release", this.records.release, scope, () -> RedisRecords.releaseArgs(token),
				ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return execute("openStream", this.records.openStream, scope, () -> RedisRecords.openStreamArgs(token, head),
				ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return execute("appendEvents", this.records.appendEvents, scope,
				() -> RedisRecords.appendEventsArgs(token, fromSequence, events), ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return execute("completeStream", this.records.completeStream, scope,
				() -> RedisRecords.completeStreamArgs(token, ttl), ReactiveRedisIdempotencyStore::bool);
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return execute("readStream", this.records.readStream, scope,
				() -> RedisRecords.readStreamArgs(afterSequence, max),
				(answer) -> this.records.slice(scope, list(answer), afterSequence));
	}

	/**
	 * Runs the script on the record's key and reads its answer; every failure, the reading's included,
	 * completes the future with an {@link IdempotencyStoreException}.
	 */
	private <T> CompletableFuture<T> execute(String operation, RedisScript<?> script, String scope,
			Supplier<byte[][]> args, Function<Object, T> reader) {
		return Mono.defer(() -> eval(script, this.records.keyBytes(scope), args.get()))
			.timeout(this.operationTimeout)
			.map(reader)
			.onErrorMap((ex) -> !(ex instanceof IdempotencyStoreException), (ex) -> failure(operation, scope, ex))
			.toFuture();
	}

	private Mono<Object> eval(RedisScript<?> script, byte[] key, byte[][] args) {
		ReturnType returnType = ReturnType.fromJavaType(script.getResultType());
		return Mono.usingWhen(connection(),
				(connection) -> connection.scriptingCommands()
					.evalSha(script.getSha1(), returnType, 1, keyAndArgs(key, args))
					.onErrorResume(RedisRecords::isNoScript,
							// A new, restarted or promoted server has not seen the script: EVAL caches it.
							(ex) -> connection.scriptingCommands()
								.eval(ByteBuffer.wrap(script.getScriptAsString().getBytes(StandardCharsets.UTF_8)),
										returnType, 1, keyAndArgs(key, args)))
					.single(),
				ReactiveRedisConnection::closeLater);
	}

	private Mono<ReactiveRedisConnection> connection() {
		Mono<ReactiveRedisConnection> connection = Mono.fromSupplier(this.connectionFactory::getReactiveConnection);
		if (this.connected) {
			return connection;
		}
		return connection.subscribeOn(Schedulers.boundedElastic()).doOnNext((opened) -> this.connected = true);
	}

	private IdempotencyStoreException failure(String operation, String scope, Throwable ex) {
		String key = this.records.key(scope);
		if (ex instanceof TimeoutException) {
			return new IdempotencyStoreException(operation + " on Redis key " + key + " had no answer within "
					+ this.operationTimeout.toMillis() + "ms", ex);
		}
		return new IdempotencyStoreException(operation + " failed on Redis key " + key, ex);
	}

	/** Fresh buffers for each command, so that a retry with {@code EVAL} never sends consumed ones. */
	private static ByteBuffer[] keyAndArgs(byte[] key, byte[][] args) {
		ByteBuffer[] keyAndArgs = new ByteBuffer[args.length + 1];
		keyAndArgs[0] = ByteBuffer.wrap(key);
		for (int i = 0; i < args.length; i++) {
			keyAndArgs[i + 1] = ByteBuffer.wrap(args[i]);
		}
		return keyAndArgs;
	}

	/** The multi-bulk answer with its bulk strings as bytes, as the blocking store reads them. */
	private static List<Object> list(Object answer) {
		List<?> items = (List<?>) answer;
		List<Object> converted = new ArrayList<>(items.size());
		for (Object item : items) {
			converted.add((item instanceof ByteBuffer buffer) ? bytes(buffer) : item);
		}
		return converted;
	}

	private static byte[] bytes(ByteBuffer buffer) {
		byte[] bytes = new byte[buffer.remaining()];
		buffer.duplicate().get(bytes);
		return bytes;
	}

	private static Boolean bool(Object answer) {
		return (Boolean) answer;
	}

}
