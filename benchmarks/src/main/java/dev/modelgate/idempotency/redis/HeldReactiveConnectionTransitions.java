package dev.modelgate.idempotency.redis;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.data.redis.connection.ReactiveRedisConnection;
import org.springframework.data.redis.connection.ReactiveRedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The other client the asynchronous Redis store could have been built on, for {@code AsyncStoreLoad} to
 * measure beside it: {@code begin} and {@code complete} through Spring Data Redis's reactive connection
 * (Lettuce's reactive API under Reactor), one connection held for every call, the same scripts,
 * arguments, answer reading and operation timeout. No {@code NOSCRIPT} fallback (the benchmark's server
 * has the scripts once the modes before it have run them).
 */
public final class HeldReactiveConnectionTransitions implements AsyncIdempotencyStore {

	private final ReactiveRedisConnection connection;

	private final RedisRecords records;

	private final Duration operationTimeout;

	public HeldReactiveConnectionTransitions(ReactiveRedisConnectionFactory factory, String keyPrefix,
			Duration operationTimeout) {
		this.connection = factory.getReactiveConnection();
		this.records = new RedisRecords(keyPrefix);
		this.operationTimeout = operationTimeout;
	}

	@Override
	@SuppressWarnings("unchecked")
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return eval(this.records.begin, scope, RedisRecords.beginArgs(fingerprint, token, leaseTtl))
			.map((answer) -> this.records.beginResult(scope, bytes((List<Object>) answer)))
			.toFuture();
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return eval(this.records.complete, scope, RedisRecords.completeArgs(token, outcome, ttl))
			.map((answer) -> (Boolean) answer)
			.toFuture();
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		throw new UnsupportedOperationException();
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		throw new UnsupportedOperationException();
	}

	private Mono<Object> eval(RedisScript<?> script, String scope, byte[][] args) {
		ByteBuffer[] keyAndArgs = new ByteBuffer[args.length + 1];
		keyAndArgs[0] = ByteBuffer.wrap(this.records.keyBytes(scope));
		for (int i = 0; i < args.length; i++) {
			keyAndArgs[i + 1] = ByteBuffer.wrap(args[i]);
		}
		return this.connection.scriptingCommands()
			.evalSha(script.getSha1(), ReturnType.fromJavaType(script.getResultType()), 1, keyAndArgs)
			.single()
			.timeout(this.operationTimeout)
			.onErrorMap((ex) -> new IdempotencyStoreException("call failed on Redis key " + this.records.key(scope), ex));
	}

	private static List<Object> bytes(List<Object> answer) {
		List<Object> converted = new ArrayList<>(answer.size());
		for (Object item : answer) {
			if (item instanceof ByteBuffer buffer) {
				byte[] bytes = new byte[buffer.remaining()];
				buffer.duplicate().get(bytes);
				converted.add(bytes);
			}
			else {
				converted.add(item);
			}
		}
		return converted;
	}

}
