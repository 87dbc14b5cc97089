package dev.modelgate.idempotency.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.modelgate.idempotency.testsupport.RedisProcess;

/**
 * A Redis primary and one replica of the test's own ({@link RedisProcess}es), for the tests of
 * replica acknowledgements. The replica can be frozen (SIGSTOP), which keeps its connection to the
 * primary open while it acknowledges nothing. Connection factories it gives are destroyed with it.
 */
final class ReplicatedRedis implements AutoCloseable {

	private static final LettuceClientConfiguration FIVE_SECOND_COMMANDS = LettuceClientConfiguration.builder()
		.commandTimeout(Duration.ofSeconds(5))
		.build();

	private final RedisProcess primary;

	private final RedisProcess replica;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private ReplicatedRedis(RedisProcess primary, RedisProcess replica) {
		this.primary = primary;
		this.replica = replica;
	}

	/** Starts the primary and the replica and waits until the replica is in sync. */
	static ReplicatedRedis start() {
		RedisProcess primary = RedisProcess.start();
		try {
			return new ReplicatedRedis(primary, RedisProcess.startReplicaOf(primary));
		}
		catch (RuntimeException ex) {
			primary.close();
			throw ex;
		}
	}

	/** {@return a started connection factory for the primary, with 5 s command timeouts} */
	LettuceConnectionFactory primaryConnectionFactory() {
		return primaryConnectionFactory(FIVE_SECOND_COMMANDS);
	}

	/** {@return a started connection factory for the primary with these client settings} */
	LettuceConnectionFactory primaryConnectionFactory(LettuceClientConfiguration clientConfiguration) {
		return kept(this.primary.connectionFactory(clientConfiguration));
	}

	/** {@return a template on the replica, with 5 s command timeouts} */
	StringRedisTemplate replica() {
		return new StringRedisTemplate(kept(this.replica.connectionFactory(FIVE_SECOND_COMMANDS)));
	}

	/** SIGSTOP the replica: its link to the primary stays open, and it acknowledges nothing. */
	void freezeReplica() {
		this.replica.freeze();
	}

	/** SIGCONT the replica and wait until it has caught up. */
	void thawReplica() {
		this.replica.resume();
		this.replica.awaitInSyncWith(this.primary);
	}

	private LettuceConnectionFactory kept(LettuceConnectionFactory factory) {
		this.factories.add(factory);
		return factory;
	}

	@Override
	public void close() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		try (RedisProcess primary = this.primary) {
			this.replica.close();
		}
	}

}
