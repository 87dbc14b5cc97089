package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A Redis primary, one replica and three Sentinels of the suite's own, on free ports: the
 * deployment where Sentinel promotes the replica when the primary dies. Sentinels declare the
 * primary down after one second ({@code down-after-milliseconds 1000}) and need two of three to
 * agree.
 */
public final class RedisSentinelGroup implements StoreServer {

	/** The name the Sentinels monitor the primary under. */
	public static final String MASTER_NAME = "mymaster";

	private static final int SENTINELS = 3;

	private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

	private static final Pattern SLAVE_OFFSET = Pattern.compile("slave0:.*state=online,offset=(\\d+)");

	private static final Pattern MASTER_OFFSET = Pattern.compile("master_repl_offset:(\\d+)");

	private final String scenario;

	private final RedisServer primary;

	private final RedisServer replica;

	private final List<Integer> sentinelPorts = new ArrayList<>();

	private final List<ManagedProcess> sentinels = new ArrayList<>();

	private final Path directory;

	private RedisSentinelGroup(String scenario, RedisServer primary, RedisServer replica) {
		this.scenario = scenario;
		this.primary = primary;
		this.replica = replica;
		this.directory = WorkDirectories.temporary("sentinels");
	}

	/**
	 * Starts the primary, the replica and the Sentinels, and waits until every Sentinel knows the
	 * replica and the other Sentinels (it cannot fail over before).
	 * @param scenario the scenario it serves (names its log directory)
	 */
	public static RedisSentinelGroup start(String scenario) {
		RedisServer primary = RedisServer.startPrimary(scenario, "redis-primary");
		RedisServer replica = null;
		RedisSentinelGroup group = null;
		try {
			replica = RedisServer.startReplica(scenario, "redis-replica", primary.port());
			group = new RedisSentinelGroup(scenario, primary, replica);
			for (int i = 0; i < SENTINELS; i++) {
				group.startSentinel(i);
			}
			group.awaitSentinelsReady();
			group.awaitReplicaInSync(START_TIMEOUT);
			return group;
		}
		catch (RuntimeException ex) {
			if (group != null) {
				group.close();
			}
			else {
				primary.close();
				if (replica != null) {
					replica.close();
				}
			}
			throw ex;
		}
	}

	@Override
	public String name() {
		return "redis-sentinel";
	}

	/**
	 * The sample app's {@code redis} profile (its Lettuce settings), pointed at the Sentinels: Spring
	 * Boot builds a Sentinel-aware connection factory that asks them for the primary.
	 */
	@Override
	public List<String> gatewayArguments() {
		return List.of("--modelgate.idempotency.store=redis", "--spring.data.redis.sentinel.master=" + MASTER_NAME,
				"--spring.data.redis.sentinel.nodes=" + sentinelNodes(), "--spring.data.redis.timeout=2s",
				"--spring.data.redis.connect-timeout=2s");
	}

	@Override
	public Map<String, String> gatewayEnvironment() {
		return Map.of("SPRING_PROFILES_ACTIVE", "redis");
	}

	/** {@code 127.0.0.1:s1,127.0.0.1:s2,127.0.0.1:s3}. */
	public String sentinelNodes() {
		return this.sentinelPorts.stream().map((port) -> "127.0.0.1:" + port).collect(Collectors.joining(","));
	}

	/** A started connection factory that finds the primary through the Sentinels; the caller destroys it. */
	public LettuceConnectionFactory connectionFactory() {
		RedisSentinelConfiguration sentinel = new RedisSentinelConfiguration();
		sentinel.master(MASTER_NAME);
		this.sentinelPorts.forEach((port) -> sentinel.sentinel("127.0.0.1", port));
		LettuceConnectionFactory factory = new LettuceConnectionFactory(sentinel,
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	public RedisServer primary() {
		return this.primary;
	}

	public RedisServer replica() {
		return this.replica;
	}

	/** Waits until the replica has every write the primary made so far. */
	public void awaitReplicaInSync(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (!inSync()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The replica did not catch up with the primary within " + timeout
						+ ":\n" + info(this.primary, "replication"));
			}
			Sleep.millis(50);
		}
	}

	/**
	 * Closes the primary's side of the replication link while the replica is frozen, so that what the
	 * primary writes from now on stays in its own memory. Without this the kernel would deliver the
	 * bytes already sent into the frozen replica's socket, and it would apply them when it resumes,
	 * even after the primary died: the lost window would depend on socket buffers.
	 */
	public void severReplicationLink() {
		try {
			String killed = this.primary.command("CLIENT", "KILL", "TYPE", "replica");
			if (!"1".equals(killed)) {
				throw new IllegalStateException("Expected to close one replica link, closed " + killed);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Waits until the failover is over: the replica reports itself a primary, and every Sentinel
	 * names it and has no failover in progress (while one is, Sentinels already name the replica
	 * they chose, and an aborted failover turns it back into a replica). Answers how long it took.
	 */
	public Duration awaitPromotion(Duration timeout) {
		long start = System.nanoTime();
		long deadline = start + timeout.toNanos();
		String expected = Integer.toString(this.replica.port());
		while (!info(this.replica, "replication").contains("role:master")
				|| !this.sentinelPorts.stream().allMatch((port) -> expected.equals(masterPort(port))
						&& "master".equals(field(List.of(cli(port, "SENTINEL", "MASTER", MASTER_NAME).split("\n")),
								"flags")))) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Sentinel did not promote the replica (port " + expected + ") within "
						+ timeout + "; the Sentinels name " + this.sentinelPorts.stream().map(this::masterPort).toList());
			}
			Sleep.millis(50);
		}
		return Duration.ofNanos(System.nanoTime() - start);
	}

	/**
	 * After a promotion, brings the killed primary back (empty: nothing persisted) as a replica of the
	 * new primary, and waits until it has caught up.
	 */
	public void restartOldPrimaryAsReplica() {
		this.primary.restartAsReplicaOf(this.replica.port());
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (!info(this.replica, "replication").matches("(?s).*slave0:.*state=online.*")) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The old primary did not sync with the new one within "
						+ START_TIMEOUT + ":\n" + info(this.replica, "replication"));
			}
			Sleep.millis(50);
		}
	}

	private boolean inSync() {
		String replication = info(this.primary, "replication");
		Matcher slave = SLAVE_OFFSET.matcher(replication);
		Matcher master = MASTER_OFFSET.matcher(replication);
		return slave.find() && master.find() && slave.group(1).equals(master.group(1));
	}

	private void startSentinel(int index) {
		int port = Ports.free();
		Path config = this.directory.resolve("sentinel-" + port + ".conf");
		String text = String.join("\n", "port " + port, "bind 127.0.0.1", "daemonize no", "protected-mode no",
				"dir " + this.directory, "sentinel monitor " + MASTER_NAME + " 127.0.0.1 " + this.primary.port() + " 2",
				"sentinel down-after-milliseconds " + MASTER_NAME + " 1000",
				"sentinel failover-timeout " + MASTER_NAME + " 5000",
				"sentinel parallel-syncs " + MASTER_NAME + " 1", "");
		try {
			Files.writeString(config, text, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		ManagedProcess sentinel = ManagedProcess.start("sentinel:" + port,
				List.of(Binaries.redisServer(), config.toString(), "--sentinel"), Map.of(),
				WorkDirectories.log(this.scenario, "sentinel-" + index + "-" + port));
		this.sentinelPorts.add(port);
		this.sentinels.add(sentinel);
		sentinel.awaitCondition(() -> cli(port, "PING").contains("PONG"), "PONG", START_TIMEOUT);
	}

	private void awaitSentinelsReady() {
		for (int i = 0; i < SENTINELS; i++) {
			int port = this.sentinelPorts.get(i);
			this.sentinels.get(i).awaitCondition(() -> {
				List<String> master = List.of(cli(port, "SENTINEL", "MASTER", MASTER_NAME).split("\n"));
				return "1".equals(field(master, "num-slaves"))
						&& Integer.toString(SENTINELS - 1).equals(field(master, "num-other-sentinels"));
			}, "knowledge of the replica and the other Sentinels", START_TIMEOUT);
		}
	}

	private String masterPort(int sentinelPort) {
		String[] address = cli(sentinelPort, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME).split("\n");
		return (address.length == 2) ? address[1].trim() : "";
	}

	private static String field(List<String> flat, String name) {
		int index = flat.indexOf(name);
		return (index >= 0 && index + 1 < flat.size()) ? flat.get(index + 1).trim() : null;
	}

	private static String info(RedisServer server, String section) {
		try {
			return server.command("INFO", section);
		}
		catch (IOException ex) {
			return ex.toString();
		}
	}

	private static String cli(int port, String... arguments) {
		List<String> command = new ArrayList<>(List.of(Binaries.redisCli(), "-p", Integer.toString(port)));
		command.addAll(List.of(arguments));
		try {
			return ManagedProcess.run(Duration.ofSeconds(10), command.toArray(String[]::new)).strip();
		}
		catch (IllegalStateException ex) {
			return ex.getMessage();
		}
	}

	@Override
	public void close() {
		this.sentinels.forEach(ManagedProcess::close);
		this.replica.close();
		this.primary.close();
		WorkDirectories.delete(this.directory);
	}

	@Override
	public String toString() {
		return "primary " + this.primary.port() + ", replica " + this.replica.port() + ", Sentinels " + sentinelNodes();
	}

}
