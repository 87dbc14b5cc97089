package dev.modelgate.reliability.support;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A local Redis Cluster of three masters and no replicas, made with {@code redis-cli --cluster
 * create} from three {@link RedisServer} nodes of the suite's own.
 */
public final class RedisCluster implements StoreServer {

	private static final int MASTERS = 3;

	private final List<RedisServer> nodes;

	private RedisCluster(List<RedisServer> nodes) {
		this.nodes = nodes;
	}

	/**
	 * Starts the nodes, joins them and waits until every node reports {@code cluster_state:ok}.
	 * @param scenario the scenario it serves (names its log directory)
	 */
	public static RedisCluster start(String scenario) {
		List<RedisServer> nodes = new ArrayList<>();
		try {
			for (int i = 0; i < MASTERS; i++) {
				nodes.add(RedisServer.startClusterNode(scenario, Ports.freeWithClusterBus()));
			}
			List<String> create = new ArrayList<>(List.of(Binaries.redisCli(), "--cluster", "create"));
			nodes.forEach((node) -> create.add("127.0.0.1:" + node.port()));
			create.addAll(List.of("--cluster-replicas", "0", "--cluster-yes"));
			ManagedProcess.run(Duration.ofSeconds(60), create.toArray(String[]::new));
			RedisCluster cluster = new RedisCluster(nodes);
			cluster.awaitState("cluster_state:ok", Duration.ofSeconds(30));
			return cluster;
		}
		catch (RuntimeException ex) {
			nodes.forEach(RedisServer::close);
			throw ex;
		}
	}

	@Override
	public String name() {
		return "redis-cluster";
	}

	/** {@code 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3}. */
	public String nodeList() {
		return this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
	}

	@Override
	public List<String> gatewayArguments() {
		return List.of("--modelgate.idempotency.store=redis", "--spring.data.redis.cluster.nodes=" + nodeList(),
				"--spring.data.redis.timeout=2s", "--spring.data.redis.connect-timeout=2s");
	}

	/** A started connection factory for the cluster; the caller destroys it. */
	public LettuceConnectionFactory connectionFactory() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisClusterConfiguration(this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).toList()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/** How many keys each node holds, in node order: proof that the records were spread. */
	public List<Long> keysPerNode() {
		List<Long> counts = new ArrayList<>();
		for (RedisServer node : this.nodes) {
			try {
				counts.add(Long.parseLong(node.command("DBSIZE")));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot ask " + node + " for its size", ex);
			}
		}
		return counts;
	}

	private void awaitState(String expected, Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (RedisServer node : this.nodes) {
			while (!info(node).contains(expected)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(node + " did not reach " + expected + " within " + timeout
							+ ":\n" + info(node));
				}
				Sleep.millis(100);
			}
		}
	}

	private static String info(RedisServer node) {
		try {
			return node.command("CLUSTER", "INFO");
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServer::close);
	}

}
