package dev.modelgate.idempotency.redis;

import java.util.Properties;
import java.util.TreeSet;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.modelgate.idempotency.redis.RedisEvictionPolicy.Source;

/**
 * Reads a Redis server's {@code maxmemory-policy}, to tell whether it may evict idempotency records.
 *
 * <p>It asks {@code CONFIG GET maxmemory-policy} first. Managed services often rename or forbid
 * {@code CONFIG}, and ACL users may not be allowed it, so a refused {@code CONFIG} falls back to
 * {@code INFO memory} (field {@code maxmemory_policy}); when that is refused too, the policy is
 * {@link RedisEvictionPolicy#unknown unknown}. On Redis Cluster both commands go to every primary; the
 * answer is a node's policy that evicts, if any does, since records on that node are then at risk.
 *
 * <p>A command the server refused is not asked again by the same reader: a health check that reads the
 * policy every few seconds would otherwise add a {@code NOPERM} entry to the server's {@code ACL LOG}
 * each time. Only the server's own error reply ({@code NOPERM}, {@code ERR unknown command}) counts as
 * a refusal: a timeout, an interruption or a lost connection says nothing about the policy, is thrown,
 * and the next read asks again.
 */
public class RedisEvictionPolicyReader {

	private static final String CONFIG_PARAMETER = "maxmemory-policy";

	private static final String INFO_FIELD = "maxmemory_policy";

	private final RedisConnectionFactory connectionFactory;

	private volatile @Nullable String configRefusal;

	private volatile @Nullable String infoRefusal;

	/**
	 * @param connectionFactory the Redis that keeps the idempotency records
	 */
	public RedisEvictionPolicyReader(RedisConnectionFactory connectionFactory) {
		this.connectionFactory = connectionFactory;
	}

	/**
	 * Asks the server for its policy.
	 * @return the policy, unknown when the server refused both commands
	 * @throws DataAccessException when Redis cannot be reached or does not answer in time (a
	 * {@link RedisConnectionFailureException} or a {@link TransientDataAccessException}): that says
	 * nothing about the policy
	 */
	public RedisEvictionPolicy read() {
		String configRefusal = this.configRefusal;
		String infoRefusal = this.infoRefusal;
		if (configRefusal != null && infoRefusal != null) {
			return RedisEvictionPolicy.unknown(configRefusal + "; " + infoRefusal);
		}
		try (RedisConnection connection = this.connectionFactory.getConnection()) {
			if (configRefusal == null) {
				try {
					String name = policyIn(connection.serverCommands().getConfig(CONFIG_PARAMETER), CONFIG_PARAMETER);
					if (name != null) {
						return RedisEvictionPolicy.of(name, Source.CONFIG);
					}
					configRefusal = "CONFIG GET " + CONFIG_PARAMETER + " answered nothing";
				}
				catch (DataAccessException ex) {
					configRefusal = "CONFIG GET " + CONFIG_PARAMETER + " refused: " + refusal(ex);
				}
				this.configRefusal = configRefusal;
			}
			try {
				String name = policyIn(connection.serverCommands().info("memory"), INFO_FIELD);
				if (name != null) {
					return RedisEvictionPolicy.of(name, Source.INFO);
				}
				infoRefusal = "INFO memory has no " + INFO_FIELD;
			}
			catch (DataAccessException ex) {
				infoRefusal = "INFO memory refused: " + refusal(ex);
			}
			this.infoRefusal = infoRefusal;
			return RedisEvictionPolicy.unknown(configRefusal + "; " + infoRefusal);
		}
	}

	/**
	 * The policy in a {@code CONFIG GET} or {@code INFO} answer: under the bare name from one server, under
	 * {@code host:port.name} for each node of a cluster. Of several, one that evicts (the first in order),
	 * else {@code noeviction}.
	 */
	static @Nullable String policyIn(@Nullable Properties answer, String name) {
		if (answer == null) {
			return null;
		}
		TreeSet<String> policies = new TreeSet<>();
		answer.stringPropertyNames()
			.stream()
			.filter((key) -> key.equals(name) || key.endsWith("." + name))
			.map(answer::getProperty)
			.map(String::trim)
			.filter(Predicate.not(String::isEmpty))
			.forEach(policies::add);
		return policies.stream()
			.filter((policy) -> !RedisEvictionPolicy.NOEVICTION.equals(policy))
			.findFirst()
			.orElse(policies.isEmpty() ? null : RedisEvictionPolicy.NOEVICTION);
	}

	/**
	 * The server's refusal, such as {@code NOPERM ...} or {@code ERR unknown command 'CONFIG'}; any other
	 * failure (the server not reached, not answering in time, the reading thread interrupted) is thrown
	 * instead, since it does not mean the command is refused.
	 */
	private static String refusal(DataAccessException ex) {
		Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
		if (ex instanceof RedisConnectionFailureException || ex instanceof TransientDataAccessException
				|| !isErrorReply(cause)) {
			throw ex;
		}
		return (cause.getMessage() != null) ? cause.getMessage() : cause.getClass().getName();
	}

	/**
	 * Whether a client's exception is the server's error reply: Lettuce's
	 * {@code RedisCommandExecutionException} or Jedis's {@code JedisDataException} (its ACL subclass
	 * included). Named, not imported, since either client may be absent.
	 */
	static boolean isErrorReply(Throwable cause) {
		for (Class<?> type = cause.getClass(); type != null; type = type.getSuperclass()) {
			String name = type.getName();
			if (name.equals("io.lettuce.core.RedisCommandExecutionException")
					|| name.equals("redis.clients.jedis.exceptions.JedisDataException")) {
				return true;
			}
		}
		return false;
	}

}
