package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * How the store sends one script on its keys (a record and its spent-key marker): {@code EVALSHA}, and {@code EVAL} when Redis answers
 * {@code NOSCRIPT}. The cheapest way the connection factory allows, picked once: on Lettuce, the
 * factory's shared native connection; on Jedis, the pooled connection's own {@code evalsha}; on
 * any other factory, {@link RedisTemplate}. The first two skip what Spring Data adds around each
 * call: a connection object (on Lettuce, behind the factory's lock on its shared connection) and a
 * proxy of it, the script executor's serializers, converters and copies of the arguments.
 */
interface ScriptCalls {

	boolean LETTUCE_PRESENT = ClassUtils.isPresent("io.lettuce.core.RedisClient", ScriptCalls.class.getClassLoader());

	boolean JEDIS_PRESENT = ClassUtils.isPresent("redis.clients.jedis.Jedis", ScriptCalls.class.getClassLoader());

	/**
	 * Runs {@code script} on {@code keys}.
	 * @return the script's answer: a {@code List<Object>} of {@code byte[]} and {@code Long} for a
	 * {@code List} script, a {@code Boolean} for a {@code Boolean} one
	 * @throws RuntimeException when Redis cannot be asked or answers an error (the caller turns it
	 * into a store failure)
	 */
	Object run(RedisScript<?> script, byte[][] keys, byte[][] args);

	/** {@return how the store's calls are sent, for a log line or a test} */
	String describe();

	/** Stops what the calls started for themselves (the connection factory's connections stay). */
	default void close() {
	}

	/**
	 * @param connectionFactory the store's Redis
	 * @param template Spring Data's way, for factories of other clients
	 * @param callTimeLimit the store's call time limit, or {@code null} when the caller bounds calls
	 */
	static ScriptCalls of(RedisConnectionFactory connectionFactory, RedisTemplate<byte[], byte[]> template,
			@Nullable Duration callTimeLimit) {
		if (LETTUCE_PRESENT && LettuceScriptCalls.canServe(connectionFactory)) {
			return new LettuceScriptCalls(connectionFactory, template, callTimeLimit);
		}
		if (JEDIS_PRESENT && JedisScriptCalls.canServe(connectionFactory)) {
			return new JedisScriptCalls(connectionFactory, callTimeLimit);
		}
		return new TemplateScriptCalls(template);
	}

	/** Whether the script answers a list (else a boolean). */
	static boolean answersList(RedisScript<?> script) {
		return List.class.isAssignableFrom(script.getResultType());
	}

	/** Spring Data's own way, for any connection factory. */
	final class TemplateScriptCalls implements ScriptCalls {

		private final RedisTemplate<byte[], byte[]> template;

		TemplateScriptCalls(RedisTemplate<byte[], byte[]> template) {
			this.template = template;
		}

		@Override
		public Object run(RedisScript<?> script, byte[][] keys, byte[][] args) {
			return this.template.execute(script, List.of(keys), (Object[]) args);
		}

		@Override
		public String describe() {
			return "RedisTemplate";
		}

	}

}
