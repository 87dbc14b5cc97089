package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import redis.clients.jedis.commands.ScriptingKeyBinaryCommands;
import redis.clients.jedis.exceptions.JedisNoScriptException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;

import dev.modelgate.idempotency.core.IdempotencyStoreException;

/**
 * Scripts on the Jedis connection that the factory lends for the call (from its pool), sent with
 * Jedis's own {@code evalsha} on the calling thread: a blocking socket, no other thread involved.
 * <p>
 * Jedis bounds waiting for an answer by its read timeout, but not writing: a call whose command
 * is larger than a socket send buffer surely holds ({@link #DIRECT_WRITE_LIMIT}), sent to a Redis
 * that stopped reading, would block its thread until TCP gives up. With a call time limit such
 * calls (a large recorded response) are sent from a thread of the store's own and waited for at
 * most that long; every other call stays on the caller's thread.
 */
final class JedisScriptCalls implements ScriptCalls {

	/** Commands up to this size fit the socket buffers of an idle connection, so writing them does not block. */
	static final int DIRECT_WRITE_LIMIT = 8 * 1024;

	private final JedisConnectionFactory connectionFactory;

	private final @Nullable Duration callTimeLimit;

	private volatile @Nullable ExecutorService largeWrites;

	JedisScriptCalls(RedisConnectionFactory connectionFactory, @Nullable Duration callTimeLimit) {
		this.connectionFactory = (JedisConnectionFactory) connectionFactory;
		this.callTimeLimit = callTimeLimit;
	}

	static boolean canServe(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof JedisConnectionFactory;
	}

	@Override
	public Object run(RedisScript<?> script, byte[][] keys, byte[][] args) {
		byte[][] keysAndArgs = new byte[keys.length + args.length][];
		System.arraycopy(keys, 0, keysAndArgs, 0, keys.length);
		System.arraycopy(args, 0, keysAndArgs, keys.length, args.length);
		if (this.callTimeLimit != null && size(keysAndArgs) > DIRECT_WRITE_LIMIT) {
			return runBounded(script, keys.length, keysAndArgs, this.callTimeLimit);
		}
		return runHere(script, keys.length, keysAndArgs);
	}

	@Override
	public String describe() {
		return "Jedis connection";
	}

	private Object runHere(RedisScript<?> script, int keyCount, byte[][] keysAndArgs) {
		try {
			return evalsha(script, keyCount, keysAndArgs);
		}
		catch (RuntimeException ex) {
			// Spring Data's exception for Jedis's, as the template would have thrown.
			DataAccessException translated = this.connectionFactory.translateExceptionIfPossible(ex);
			throw (translated != null) ? translated : ex;
		}
	}

	private Object evalsha(RedisScript<?> script, int keyCount, byte[][] keysAndArgs) {
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			ScriptingKeyBinaryCommands jedis = (ScriptingKeyBinaryCommands) connection.getNativeConnection();
			Object answer;
			try {
				answer = jedis.evalsha(script.getSha1().getBytes(StandardCharsets.US_ASCII), keyCount, keysAndArgs);
			}
			catch (JedisNoScriptException ex) {
				// A new or restarted Redis has not seen the script yet: EVAL runs it and loads it for next time.
				answer = jedis.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8), keyCount, keysAndArgs);
			}
			return ScriptCalls.answersList(script) ? answer : Long.valueOf(1).equals(answer);
		}
	}

	private Object runBounded(RedisScript<?> script, int keyCount, byte[][] keysAndArgs, Duration limit) {
		Future<Object> call = largeWrites().submit(() -> runHere(script, keyCount, keysAndArgs));
		try {
			return call.get(limit.toNanos(), TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			call.cancel(true);
			throw new IdempotencyStoreException("Redis did not answer within " + limit, ex);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure
					: new IdempotencyStoreException("Redis call failed", ex.getCause());
		}
		catch (InterruptedException ex) {
			call.cancel(true);
			Thread.currentThread().interrupt();
			throw new IdempotencyStoreException("Interrupted while waiting for Redis", ex);
		}
	}

	private ExecutorService largeWrites() {
		ExecutorService executor = this.largeWrites;
		if (executor == null) {
			synchronized (this) {
				executor = this.largeWrites;
				if (executor == null) {
					AtomicInteger count = new AtomicInteger();
					executor = Executors.newCachedThreadPool((runnable) -> {
						Thread thread = new Thread(runnable, "modelgate-idempotency-redis-" + count.incrementAndGet());
						thread.setDaemon(true);
						return thread;
					});
					this.largeWrites = executor;
				}
			}
		}
		return executor;
	}

	private static long size(byte[][] values) {
		long size = 0;
		for (byte[] value : values) {
			size += value.length;
		}
		return size;
	}

	@Override
	public void close() {
		ExecutorService executor = this.largeWrites;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

}
