package dev.modelgate.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.LettuceFutures;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Scripts on the Lettuce connection that the factory shares between all its callers (Spring
 * Data's default, {@code shareNativeConnection}): the same connection, with the factory's
 * standalone, Sentinel, Cluster, TLS and ACL set-up, its reconnects, and Cluster routing by the
 * script's key; only the per-call wrapping is gone. Each call waits at most the factory's command
 * timeout (as Spring Data's own calls do) and is cancelled after it.
 * <p>
 * The connection is looked up on the first call (so that the store can be created while Redis is
 * down) and again whenever the factory closed it (a reset, a restart). A factory that hands out a
 * connection per caller instead of a shared one (no {@code shareNativeConnection}, or a static
 * primary/replica set-up) is served by {@link RedisTemplate}.
 */
final class LettuceScriptCalls implements ScriptCalls {

	private final LettuceConnectionFactory connectionFactory;

	private final TemplateScriptCalls template;

	private volatile @Nullable Shared shared;

	private volatile boolean unshared;

	LettuceScriptCalls(RedisConnectionFactory connectionFactory, RedisTemplate<byte[], byte[]> template) {
		this.connectionFactory = (LettuceConnectionFactory) connectionFactory;
		this.template = new TemplateScriptCalls(template);
	}

	static boolean canServe(RedisConnectionFactory connectionFactory) {
		return connectionFactory instanceof LettuceConnectionFactory lettuce && lettuce.getShareNativeConnection();
	}

	@Override
	public Object run(RedisScript<?> script, byte[][] keys, byte[][] args) {
		Shared connection = (this.unshared) ? null : shared();
		if (connection == null) {
			return this.template.run(script, keys, args);
		}
		ScriptOutputType type = ScriptCalls.answersList(script) ? ScriptOutputType.MULTI : ScriptOutputType.BOOLEAN;
		long timeout = this.connectionFactory.getClientConfiguration().getCommandTimeout().toNanos();
		try {
			try {
				return await(connection.commands.evalsha(script.getSha1(), type, keys, args), timeout);
			}
			catch (RedisNoScriptException ex) {
				// A new or restarted Redis has not seen the script yet: EVAL runs it and loads it for next time.
				return await(connection.commands.eval(script.getScriptAsString().getBytes(StandardCharsets.UTF_8),
						type, keys, args), timeout);
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

	private static Object await(RedisFuture<Object> answer, long timeoutNanos) {
		return LettuceFutures.awaitOrCancel(answer, timeoutNanos, TimeUnit.NANOSECONDS);
	}

	private @Nullable Shared shared() {
		Shared current = this.shared;
		if (current != null && current.connection.isOpen()) {
			return current;
		}
		synchronized (this) {
			current = this.shared;
			if (current == null || !current.connection.isOpen()) {
				current = lookUp();
				this.shared = current;
				this.unshared = (current == null);
			}
			return current;
		}
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
