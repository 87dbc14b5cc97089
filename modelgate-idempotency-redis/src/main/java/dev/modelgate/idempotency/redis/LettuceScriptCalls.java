package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Scripts on the Lettuce connection that the factory shares between all its callers (Spring
 * Data's default, {@code shareNativeConnection}): the same connection, with the factory's
 * standalone, Sentinel, Cluster, TLS and ACL set-up, its reconnects, and Cluster routing by the
 * script's key; only the per-call wrapping is gone.
 * <p>
 * Each call waits on the caller's thread for at most the store's call time limit (or the factory's
 * command timeout, if shorter) and is cancelled after it, so that a store whose client waits 60 s
 * by default (Spring Boot's) is still bounded by {@code operation-timeout} without handing each call
 * to another thread. The connection is looked up on the first call (so that the store can be
 * created while Redis is down) and again whenever the factory closed it (a reset, a restart), not
 * while it is only disconnected and reconnecting on its own: opening it
 * can take the client's connect and command timeouts, so the look-up runs on a thread of its own
 * and the call waits for it within the same limit. A factory that hands out a connection per caller
 * instead of a shared one (no {@code shareNativeConnection}, or a static primary/replica set-up) is
 * served by {@link RedisTemplate}, bounded by the client's own timeouts.
 */
final class LettuceScriptCalls implements ScriptCalls {

	private final LettuceConnectionFactory connectionFactory;

	private final TemplateScriptCalls template;

	private final @Nullable Duration callTimeLimit;

	private volatile @Nullable Shared shared;

	private volatile boolean unshared;

	private @Nullable CompletableFuture<@Nullable Shared> lookingUp;

	/**
	 * @param callTimeLimit the longest a call may wait, or {@code null} for the factory's command
	 * timeout
	 */
	LettuceScriptCalls(RedisConnectionFactory connectionFactory, RedisTemplate<byte[], byte[]> template,
			@Nullable Duration callTimeLimit) {
		this.connectionFactory = (LettuceConnectionFactory) connectionFactory;
		this.template = new TemplateScriptCalls(template);
		this.callTimeLimit = callTimeLimit;
	}

	static boolean canServe(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection();
	}

	@Override
	public Object run(RedisScript<?> script, byte[][] keys, byte[][] args) {
		long started = System.nanoTime();
		Shared connection;
		try {
			connection = (this.unshared) ? null : shared(started);
		}
		catch (RuntimeException ex) {
			throw translated(ex);
		}
		if (connection == null) {
			return this.template.run(script, keys, args);
		}
		ScriptOutputType type = ScriptCalls.answersList(script) ? ScriptOutputType.MULTI : ScriptOutputType.BOOLEAN;
		long deadline = commandDeadline(started);
		try {
			try {
				return await(connection.commands.evalsha(script.getSha1(), type, keys, args), deadline);
			}
			catch (RedisNoScriptException ex) {
				// A new or restarted Redis has not seen the script yet: EVAL runs it and loads it for next time.
				return await(connection.commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
						type, keys, args), deadline);
			}
		}
		catch (RuntimeException ex) {
			throw translated(ex);
		}
	}

	/** Spring Data's exception for Lettuce's, as the template would have thrown. */
	private RuntimeException translated(RuntimeException ex) {
		DataAccessException translated = this.connectionFactory.translateExceptionIfPossible(ex);
		return (translated != null) ? translated : ex;
	}

	@Override
	public String describe() {
		return (this.unshared) ? this.template.describe() : "Lettuce shared connection";
	}

	/**
	 * The end of the call's wait for an answer: the command timeout from now, but never after the
	 * call time limit from the call's start.
	 */
	private long commandDeadline(long started) {
		long now = System.nanoTime();
		long command = now + this.connectionFactory.getClientConfiguration().getCommandTimeout().toNanos();
		return (this.callTimeLimit != null) ? Math.min(command, started + this.callTimeLimit.toNanos()) : command;
	}

	private static Object await(RedisFuture<Object> answer, long deadline) {
		return LettuceFutures.awaitOrCancel(answer, Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	private @Nullable Shared shared(long started) {
		Shared current = this.shared;
		if (current != null && !isClosed(current.connection)) {
			// Open, or reconnecting on its own (an outage): a command fails at once or within the limit.
			return current;
		}
		CompletableFuture<@Nullable Shared> found;
		synchronized (this) {
			if (this.lookingUp == null || this.lookingUp.isDone()) {
				this.lookingUp = lookUpInTheBackground();
			}
			found = this.lookingUp;
		}
		try {
			if (this.callTimeLimit == null) {
				return found.get();
			}
			return found.get(Math.max(0, started + this.callTimeLimit.toNanos() - System.nanoTime()),
					TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			throw new RedisCommandTimeoutException("no connection to Redis within the call time limit");
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException failure) ? failure
					: new RedisConnectionFailureException("connecting to Redis failed", ex.getCause());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new RedisConnectionFailureException("interrupted while connecting to Redis", ex);
		}
	}

	/** Whether the connection was closed (the factory reset or stopped), not merely disconnected. */
	private static boolean isClosed(StatefulConnection<byte[], byte[]> connection) {
		return (connection instanceof RedisChannelHandler<?, ?> handler) ? handler.isClosed() : !connection.isOpen();
	}

	/**
	 * Asks the factory for its shared connection on a thread of its own, which may take the client's
	 * connect and command timeouts; callers wait for it within their own limit, and a connection that
	 * comes later serves the next call.
	 */
	private CompletableFuture<@Nullable Shared> lookUpInTheBackground() {
		CompletableFuture<@Nullable Shared> found = new CompletableFuture<>();
		Thread thread = new Thread(() -> {
			try {
				Shared connection = lookUp();
				this.shared = connection;
				this.unshared = (connection == null);
				found.complete(connection);
			}
			catch (Throwable ex) {
				found.completeExceptionally(ex);
			}
		}, "modelgate-idempotency-redis-connect");
		thread.setDaemon(true);
		thread.start();
		return found;
	}

	/**
	 * The factory's shared connection, or {@code null} when it has none: two connections of the
	 * factory that are open at once use the same native connection only when it is shared.
	 */
	private @Nullable Shared lookUp() {
		try (RedisConnection first = this.connectionFactory.getConnection();
				RedisConnection second = this.connectionFactory.getConnection()) {
			Object commands = first.getNativeConnection();
			if (commands != second.getNativeConnection()) {
				return null;
			}
			StatefulConnection<byte[], byte[]> connection = statefulConnection(commands);
			return (connection != null) ? new Shared(connection, (RedisClusterAsyncCommands<byte[], byte[]>) commands)
					: null;
		}
	}

	@SuppressWarnings("unchecked")
	private static @Nullable StatefulConnection<byte[], byte[]> statefulConnection(Object commands) {
		if (commands instanceof RedisAsyncCommands<?, ?> standalone) {
			return (StatefulConnection<byte[], byte[]>) standalone.getStatefulConnection();
		}
		if (commands instanceof RedisAdvancedClusterAsyncCommands<?, ?> cluster) {
			return (StatefulConnection<byte[], byte[]>) cluster.getStatefulConnection();
		}
		return null;
	}

	private record Shared(StatefulConnection<byte[], byte[]> connection,
			RedisClusterAsyncCommands<byte[], byte[]> commands) {
	}

}
