package dev.modelgate.reliability.support;

import java.util.List;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A three-master Redis Cluster of a test class's own, started before its tests and stopped after
 * them, with one connection factory on it: register it as a {@code static} field with
 * {@code @RegisterExtension}.
 */
public final class RedisClusterExtension implements BeforeAllCallback, AfterAllCallback {

	private final String scenario;

	private RedisCluster cluster;

	private LettuceConnectionFactory connectionFactory;

	/** @param scenario the scenario the cluster serves (names its log directories) */
	public RedisClusterExtension(String scenario) {
		this.scenario = scenario;
	}

	@Override
	public void beforeAll(ExtensionContext context) {
		this.cluster = RedisCluster.start(this.scenario);
		this.connectionFactory = this.cluster.connectionFactory();
	}

	@Override
	public void afterAll(ExtensionContext context) {
		if (this.connectionFactory != null) {
			this.connectionFactory.destroy();
		}
		if (this.cluster != null) {
			this.cluster.close();
		}
	}

	/** {@return the started connection factory on the cluster} */
	public LettuceConnectionFactory connectionFactory() {
		return this.connectionFactory;
	}

	/** {@return how many keys each master holds, in node order} */
	public List<Long> keysPerNode() {
		return this.cluster.keysPerNode();
	}

}
