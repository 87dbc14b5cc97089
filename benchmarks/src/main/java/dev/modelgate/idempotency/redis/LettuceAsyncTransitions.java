package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * The other client the reactive store could have been built on, for {@code AsyncStoreLoad} to measure
 * beside it: {@code begin} and {@code complete} through Lettuce's own asynchronous API on the connection
 * factory's shared connection ({@code RedisFuture}s, no Reactor), with the same scripts, arguments,
 * answer reading and operation timeout. Nothing else is implemented.
 */
public final class LettuceAsyncTransitions implements AsyncIdempotencyStore {

	private final RedisClusterAsyncCommands<byte[], byte[]> commands;

	private final RedisRecords records;

	private final Duration operationTimeout;

	/**
	 * @param connectionFactory a started factory that shares its native connection (the default)
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param operationTimeout how long a call may take
	 */
	public LettuceAsyncTransitions(LettuceConnectionFactory connectionFactory, String keyPrefix,
			Duration operationTimeout) {
		try (LettuceConnection connection = (LettuceConnection) connectionFactory.getConnection()) {
			this.commands = connection.getNativeConnection();
		}
		this.records = new RedisRecords(keyPrefix);
		this.operationTimeout = operationTimeout;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return this.<List<Object>>eval(this.records.begin, ScriptOutputType.MULTI, scope,
				RedisRecords.beginArgs(fingerprint, token, leaseTtl))
			.thenApply((answer) -> this.records.beginResult(scope, answer));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return eval(this.records.complete, ScriptOutputType.BOOLEAN, scope,
				RedisRecords.completeArgs(token, outcome, ttl));
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		throw new UnsupportedOperationException();
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		throw new UnsupportedOperationException();
	}

	private <T> CompletableFuture<T> eval(RedisScript<?> script, ScriptOutputType type, String scope, byte[][] args) {
		byte[][] keys = { this.records.keyBytes(scope) };
		CompletableFuture<T> sent = this.commands.<T>evalsha(script.getSha1(), type, keys, args)
			.toCompletableFuture();
		return sent.exceptionallyCompose((ex) -> (ex.getCause() instanceof RedisNoScriptException
				|| ex instanceof RedisNoScriptException)
						? this.commands.<T>eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), type, keys,
								args).toCompletableFuture()
						: CompletableFuture.failedFuture(ex))
			.orTimeout(this.operationTimeout.toMillis(), TimeUnit.MILLISECONDS)
			.exceptionallyCompose((ex) -> CompletableFuture
				.failedFuture(new IdempotencyStoreException("call failed on Redis key " + this.records.key(scope), ex)));
	}

}
