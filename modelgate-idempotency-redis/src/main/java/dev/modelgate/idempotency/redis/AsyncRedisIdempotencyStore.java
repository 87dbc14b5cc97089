package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.lettuce.LettuceConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * An {@link AsyncIdempotencyStore} on Redis, for callers that must not block (WebFlux, Spring Cloud
 * Gateway): the same Lua scripts, keys and record layout as {@link RedisIdempotencyStore}, so both stores
 * can share one Redis (standalone, Sentinel or Cluster) and a fleet can mix them. Each transition is one
 * {@code EVALSHA} (an {@code EVAL} when the server has not cached the script yet) sent through Lettuce's
 * asynchronous API on the connection factory's connection, and no thread waits for its answer. Lettuce's
 * own futures measured cheaper per call than Spring Data Redis's reactive connection, which puts
 * Reactor's machinery around every command (dev/benchmarks-history.md).
 *
 * <p>Each call is bounded by the operation timeout: one that is not answered in time, or that Redis
 * refuses, completes with an {@link IdempotencyStoreException}, never with a made-up answer. The futures
 * complete on Lettuce's I/O thread (on a timeout, the JDK's delay scheduler), so what follows them must
 * not block.
 *
 * <p>The connection is the factory's shared one, or, when the factory does not share its connection, a
 * dedicated one kept until {@link #close()}. Spring Data Redis opens it blocking, so the first call has it
 * opened on a thread of the store's own, within that call's timeout, which also sends the client's first
 * command there ({@code TIME}); a call that finds the last attempt failed tries again. There are no
 * replica acknowledgements ({@code WAIT}): an application that needs them uses the blocking store.
 */
public class AsyncRedisIdempotencyStore implements AsyncIdempotencyStore, AutoCloseable {

	/** Opens the connection, once, off the caller's thread: a thread for each attempt, attempts one at a time. */
	private static final Executor CONNECTOR = (task) -> {
		Thread thread = new Thread(task, "modelgate-idempotency-redis-connect");
		thread.setDaemon(true);
		thread.start();
	};

	private final LettuceConnectionFactory connectionFactory;

	private final RedisRecords records;

	private final Duration operationTimeout;

	private final Object connecting = new Object();

	private volatile @Nullable CompletableFuture<Connected> connection;

	/**
	 * @param connectionFactory the Redis to keep records in, started
	 * @param keyPrefix put before each scope hash to make the record's key
	 * @param operationTimeout how long a call may take before it fails, positive
	 */
	public AsyncRedisIdempotencyStore(LettuceConnectionFactory connectionFactory, String keyPrefix,
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
		return this.<List<Object>, BeginResult>execute("begin", this.records.begin, ScriptOutputType.MULTI, scope,
				() -> RedisRecords.beginArgs(fingerprint, token, leaseTtl),
				(answer) -> this.records.beginResult(scope, answer));
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		return bool("renew", this.records.renew, scope, () -> RedisRecords.renewArgs(token, leaseTtl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return bool("complete", this.records.complete, scope, () -> RedisRecords.completeArgs(token, outcome, ttl));
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl, SpentMarker marker) {
		return bool("complete", this.records.complete, scope,
				() -> RedisRecords.completeArgs(token, outcome, ttl, marker));
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		return bool("release", this.records.release, scope, () -> RedisRecords.releaseArgs(token));
	}

	@Override
	public CompletableFuture<Boolean> openStream(String scope, String token, byte[] head) {
		return bool("openStream", this.records.openStream, scope, () -> RedisRecords.openStreamArgs(token, head));
	}

	@Override
	public CompletableFuture<Boolean> appendEvents(String scope, String token, long fromSequence,
			List<byte[]> events) {
		return bool("appendEvents", this.records.appendEvents, scope,
				() -> RedisRecords.appendEventsArgs(token, fromSequence, events));
	}

	@Override
	public CompletableFuture<Boolean> completeStream(String scope, String token, Duration ttl) {
		return bool("completeStream", this.records.completeStream, scope,
				() -> RedisRecords.completeStreamArgs(token, ttl));
	}

	@Override
	public CompletableFuture<Optional<StreamSlice>> readStream(String scope, long afterSequence, int max) {
		return this.<List<Object>, Optional<StreamSlice>>execute("readStream", this.records.readStream,
				ScriptOutputType.MULTI, scope, () -> RedisRecords.readStreamArgs(afterSequence, max),
				(answer) -> this.records.slice(scope, answer, afterSequence));
	}

	/** Releases a dedicated connection; the factory's shared one stays open. */
	@Override
	public void close() {
		CompletableFuture<Connected> current = this.connection;
		if (current != null && current.isDone() && !current.isCompletedExceptionally()) {
			current.join().connection().close();
		}
	}

	private CompletableFuture<Boolean> bool(String operation, RedisScript<Boolean> script, String scope,
			Supplier<byte[][]> args) {
		return this.<Boolean, Boolean>execute(operation, script, ScriptOutputType.BOOLEAN, scope, args,
				Boolean.TRUE::equals);
	}

	/**
	 * Runs the script on the record's key and reads its answer; every failure, the reading's included,
	 * completes the future with an {@link IdempotencyStoreException}.
	 */
	private <T, R> CompletableFuture<R> execute(String operation, RedisScript<?> script, ScriptOutputType type,
			String scope, Supplier<byte[][]> args, Function<T, R> reader) {
		CompletableFuture<R> answer;
		try {
			byte[][] keys = this.records.keys(scope);
			byte[][] values = args.get();
			answer = connection().thenCompose((connected) -> this.<T>eval(connected.commands(), script, type, keys, values))
				.thenApply(reader);
		}
		catch (RuntimeException ex) {
			answer = CompletableFuture.failedFuture(ex);
		}
		return answer.orTimeout(this.operationTimeout.toMillis(), TimeUnit.MILLISECONDS)
			.exceptionallyCompose((ex) -> CompletableFuture.failedFuture(failure(operation, scope, ex)));
	}

	private <T> CompletionStage<T> eval(RedisClusterAsyncCommands<byte[], byte[]> commands, RedisScript<?> script,
			ScriptOutputType type, byte[][] keys, byte[][] values) {
		return commands.<T>evalsha(script.getSha1(), type, keys, values)
			.exceptionallyCompose((ex) -> RedisRecords.isNoScript(ex)
					// A new, restarted or promoted server has not seen the script: EVAL caches it.
					? commands.<T>eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), type, keys, values)
					: CompletableFuture.failedFuture(ex));
	}

	private CompletableFuture<Connected> connection() {
		CompletableFuture<Connected> current = this.connection;
		if (current != null && !current.isCompletedExceptionally()) {
			return current;
		}
		synchronized (this.connecting) {
			current = this.connection;
			if (current == null || current.isCompletedExceptionally()) {
				current = CompletableFuture.supplyAsync(this::connect, CONNECTOR);
				this.connection = current;
			}
			return current;
		}
	}

	private Connected connect() {
		LettuceConnection connection = (LettuceConnection) this.connectionFactory.getConnection();
		try {
			RedisClusterAsyncCommands<byte[], byte[]> commands = connection.getNativeConnection();
			// One command from this thread before any caller's (TIME, which the least-privilege user may
			// send): with command timeouts on (Spring Boot's default), the first command of a client
			// starts the timer that expires commands, and every command sent before that timer's thread
			// has started waits for it; a caller's event-loop thread must not be one of them.
			commands.time().get(this.operationTimeout.toMillis(), TimeUnit.MILLISECONDS);
			return new Connected(connection, commands);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			connection.close();
			throw new IdempotencyStoreException("Interrupted while connecting to Redis", ex);
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			connection.close();
			throw new IdempotencyStoreException("Redis did not answer its first command (TIME) once connected", ex);
		}
	}

	private IdempotencyStoreException failure(String operation, String scope, Throwable ex) {
		Throwable cause = (ex instanceof CompletionException && ex.getCause() != null) ? ex.getCause() : ex;
		if (cause instanceof IdempotencyStoreException storeFailure) {
			return storeFailure;
		}
		String key = this.records.key(scope);
		if (cause instanceof TimeoutException) {
			return new IdempotencyStoreException(operation + " on Redis key " + key + " had no answer within "
					+ this.operationTimeout.toMillis() + "ms", cause);
		}
		return new IdempotencyStoreException(operation + " failed on Redis key " + key, cause);
	}

	/**
	 * The store's connection and its asynchronous commands.
	 * @param connection kept open for the store's life (it holds a dedicated connection, if any)
	 * @param commands the commands on it
	 */
	private record Connected(LettuceConnection connection, RedisClusterAsyncCommands<byte[], byte[]> commands) {
	}

}
