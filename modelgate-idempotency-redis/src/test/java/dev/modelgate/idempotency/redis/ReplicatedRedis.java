package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Redis primary and one replica of the test's own ({@code redis-server} on free ports, nothing
 * persisted), for the tests of replica acknowledgements. The replica can be frozen (SIGSTOP), which
 * keeps its connection to the primary open while it acknowledges nothing.
 */
final class ReplicatedRedis implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Path directory;

	private final int primaryPort;

	private final int replicaPort;

	private final List<Process> processes = new ArrayList<>();

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	private Process replica;

	private ReplicatedRedis() throws IOException {
		this.directory = Files.createTempDirectory("modelgate-replicated-redis");
		this.primaryPort = freePort();
		this.replicaPort = freePort();
	}

	/** Starts the primary and the replica and waits until the replica is in sync. */
	static ReplicatedRedis start() {
		try {
			ReplicatedRedis redis = new ReplicatedRedis();
			try {
				redis.launch(redis.primaryPort);
				redis.replica = redis.launch(redis.replicaPort, "--replicaof", "127.0.0.1",
						Integer.toString(redis.primaryPort));
				redis.awaitInSync();
				return redis;
			}
			catch (RuntimeException ex) {
				redis.close();
				throw ex;
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** {@return a started connection factory for the primary; closed with this pair} */
	LettuceConnectionFactory primaryConnectionFactory() {
		return primaryConnectionFactory(LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
	}

	/** {@return a started connection factory for the primary with these client settings; closed with this pair} */
	LettuceConnectionFactory primaryConnectionFactory(LettuceClientConfiguration clientConfiguration) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.primaryPort), clientConfiguration);
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return factory;
	}

	/** {@return a started connection factory for the replica; closed with this pair} */
	StringRedisTemplate replica() {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.replicaPort),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
		factory.afterPropertiesSet();
		factory.start();
		this.factories.add(factory);
		return new StringRedisTemplate(factory);
	}

	/** SIGSTOP the replica: its link to the primary stays open, and it acknowledges nothing. */
	void freezeReplica() {
		signal("STOP");
	}

	/** SIGCONT the replica and wait until it has caught up. */
	void thawReplica() {
		signal("CONT");
		awaitInSync();
	}

	private void signal(String name) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.replica.pid())).inheritIO().start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + name + " " + this.replica.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private void awaitInSync() {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (!cli(this.primaryPort, "INFO", "replication").matches("(?s).*slave0:.*state=online.*")
				|| !cli(this.replicaPort, "INFO", "replication").contains("master_link_status:up")) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The replica on port " + this.replicaPort + " did not sync with "
						+ this.primaryPort + " within " + START_TIMEOUT);
			}
			sleep(50);
		}
	}

	private Process launch(int port, String... arguments) {
		List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.directory.toString(),
				"--dbfilename", "dump-" + port + ".rdb", "--protected-mode", "no"));
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis-" + port + ".log").toFile())
				.start();
			this.processes.add(process);
			long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
			while (!"PONG".equals(cli(port, "PING"))) {
				if (!process.isAlive() || System.nanoTime() > deadline) {
					throw new IllegalStateException("redis-server on port " + port + " did not start: "
							+ Files.readString(this.directory.resolve("redis-" + port + ".log")));
				}
				sleep(50);
			}
			return process;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start redis-server (Redis 7, on the PATH): " + ex.getMessage(), ex);
		}
	}

	private static String cli(int port, String... arguments) {
		List<String> command = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
		command.addAll(List.of(arguments));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			String output = new String(process.getInputStream().readAllBytes()).trim();
			process.waitFor();
			return output;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run redis-cli (Redis 7, on the PATH): " + ex.getMessage(), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public void close() {
		this.factories.forEach(LettuceConnectionFactory::destroy);
		if (this.replica != null && this.replica.isAlive()) {
			signal("CONT");
		}
		for (Process process : this.processes) {
			process.destroyForcibly();
		}
		try (Stream<Path> files = Files.walk(this.directory)) {
			files.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			// A temporary directory left behind harms nothing.
		}
	}

}
