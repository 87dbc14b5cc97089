package dev.modelgate.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A throw-away {@code redis-server} of a test's own, for what the shared test server cannot be
 * given without leaking into other tests: an eviction policy, ACL users, TLS, cluster mode, a
 * replica. It listens on 127.0.0.1 on a free port (plain or TLS), persists no data, deletes its
 * directory (log, socket) when closed, and takes administrative commands as the {@code default}
 * user through {@code redis-cli} on a Unix socket of its own ({@link #cli}), so that they work
 * whatever its port speaks. {@link #connectionFactory} connects Spring Data Redis (Lettuce) to a
 * plain port, as the {@code default} user or an ACL user. It needs {@code redis-server} and
 * {@code redis-cli} (Redis 6 or later, built with TLS for {@link #startTls}) on the {@code PATH};
 * without them it fails, it never skips.
 */
public final class RedisProcess implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private static final int START_ATTEMPTS = 3;

	private final Process process;

	private final int port;

	private final Path directory;

	private boolean frozen;

	/** Stops the server if the JVM exits without {@link #close()}, so that no server outlives the tests. */
	private final Thread stopOnExit;

	private RedisProcess(Process process, int port, Path directory) {
		this.process = process;
		this.port = port;
		this.directory = directory;
		this.stopOnExit = new Thread(process::destroyForcibly);
	}

	/**
	 * Starts a server that speaks plain RESP on its port.
	 * @param configuration further {@code redis-server} arguments, such as {@code "--maxmemory-policy", "noeviction"}
	 * @return the started server, answering commands
	 */
	public static RedisProcess start(String... configuration) {
		return start((port) -> List.of("--port", Integer.toString(port)), configuration);
	}

	/**
	 * Starts a server that speaks only TLS on its port (no plain port), with the given server
	 * certificate, and does not ask clients for certificates.
	 * @param certificates the server's certificate, key and CA
	 * @param configuration further {@code redis-server} arguments
	 * @return the started server, answering commands
	 */
	public static RedisProcess startTls(TestCertificates certificates, String... configuration) {
		return start((port) -> List.of("--port", "0", "--tls-port", Integer.toString(port), "--tls-cert-file",
				certificates.certificate().toString(), "--tls-key-file", certificates.privateKey().toString(),
				"--tls-ca-cert-file", certificates.caCertificate().toString(), "--tls-auth-clients", "no"),
				configuration);
	}

	/**
	 * Starts a one-node Redis Cluster (Redis 7 or later) that speaks plain RESP on its port and
	 * serves every slot, and waits until the cluster is up.
	 * @param configuration further {@code redis-server} arguments
	 * @return the started node, answering commands
	 */
	public static RedisProcess startCluster(String... configuration) {
		// The cluster bus would be on port + 10000, which is past 65535 for many free ports.
		RedisProcess node = start((port) -> List.of("--port", Integer.toString(port), "--cluster-enabled", "yes",
				"--cluster-config-file", "nodes.conf", "--cluster-port", Integer.toString(freePort())), configuration);
		String added = node.cli("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (!node.cli("CLUSTER", "INFO").contains("cluster_state:ok")) {
			if (!"OK".equals(added) || System.nanoTime() > deadline) {
				node.close();
				throw new IllegalStateException("The one-node cluster did not come up: " + added);
			}
			sleep();
		}
		return node;
	}

	/**
	 * Starts a server that speaks plain RESP on its port and replicates {@code primary}, and waits
	 * until the replica is in sync (the primary lists it online, its link to the primary is up).
	 * @param primary the server to replicate, speaking plain RESP
	 * @param configuration further {@code redis-server} arguments
	 * @return the started replica, in sync
	 */
	public static RedisProcess startReplicaOf(RedisProcess primary, String... configuration) {
		List<String> arguments = new ArrayList<>(
				List.of("--replicaof", primary.host(), Integer.toString(primary.port)));
		arguments.addAll(Arrays.asList(configuration));
		RedisProcess replica = start(arguments.toArray(String[]::new));
		try {
			replica.awaitInSyncWith(primary);
			return replica;
		}
		catch (RuntimeException ex) {
			replica.close();
			throw ex;
		}
	}

	/** {@return the host it listens on, {@code 127.0.0.1}} */
	public String host() {
		return "127.0.0.1";
	}

	/** {@return the port it listens on, on 127.0.0.1} */
	public int port() {
		return this.port;
	}

	/**
	 * Runs one command as the {@code default} user (all permissions) and answers what
	 * {@code redis-cli} printed, trimmed. An error reply is printed, not thrown (such as
	 * {@code NOPERM ...}): compare the answer with what the command should print.
	 * @param command the command and its arguments, one element each
	 * @return the reply as {@code redis-cli} prints it when its output is not a terminal
	 */
	public String cli(String... command) {
		List<String> arguments = new ArrayList<>(List.of("redis-cli", "-s", socket().toString()));
		arguments.addAll(Arrays.asList(command));
		try {
			Process cli = new ProcessBuilder(arguments).redirectErrorStream(true).start();
			String output = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
			if (!cli.waitFor(10, TimeUnit.SECONDS) || cli.exitValue() != 0) {
				throw new IllegalStateException("redis-cli " + String.join(" ", command) + " failed: " + output);
			}
			return output;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("These tests need redis-cli on the PATH (apt-get install redis-tools)", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running redis-cli", ex);
		}
	}

	/**
	 * {@return a started connection factory for the {@code default} user, on a plain port; the
	 * caller destroys it}
	 */
	public LettuceConnectionFactory connectionFactory() {
		return connectionFactory(null, null);
	}

	/**
	 * {@return a started connection factory for an ACL user, on a plain port; the caller destroys it}
	 * @param username the user, or {@code null} for the {@code default} user
	 * @param password the user's password, or {@code null} for none
	 */
	public LettuceConnectionFactory connectionFactory(@Nullable String username, @Nullable String password) {
		return connectionFactory(username, password, LettuceClientConfiguration.defaultConfiguration());
	}

	/**
	 * {@return a started connection factory for the {@code default} user with these client
	 * settings (a command timeout, a pool), on a plain port; the caller destroys it}
	 * @param client the Lettuce client settings
	 */
	public LettuceConnectionFactory connectionFactory(LettuceClientConfiguration client) {
		return connectionFactory(null, null, client);
	}

	private LettuceConnectionFactory connectionFactory(@Nullable String username, @Nullable String password,
			LettuceClientConfiguration client) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host(), this.port);
		if (username != null) {
			server.setUsername(username);
		}
		if (password != null) {
			server.setPassword(password);
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Stops the server (SIGSTOP) without closing its connections: it answers nothing, and as a
	 * replica it stays connected to its primary and acknowledges nothing. {@link #cli} waits for it
	 * until {@link #resume()}.
	 */
	public void freeze() {
		signal("STOP");
		this.frozen = true;
	}

	/** Lets a {@link #freeze() frozen} server run again (SIGCONT). */
	public void resume() {
		signal("CONT");
		this.frozen = false;
	}

	/**
	 * Waits until this replica is in sync with {@code primary}: the primary lists a replica online
	 * and this one's link to the primary is up, such as after {@link #resume()}.
	 * @param primary the server this one replicates
	 */
	public void awaitInSyncWith(RedisProcess primary) {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (!primary.cli("INFO", "replication").matches("(?s).*slave0:.*state=online.*")
				|| !cli("INFO", "replication").contains("master_link_status:up")) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The replica on port " + this.port + " did not sync with "
						+ primary.port + " within " + START_TIMEOUT);
			}
			sleep();
		}
	}

	/** Stops the server (a frozen one too) and deletes its directory. */
	@Override
	public void close() {
		if (this.frozen) {
			resume();
		}
		Runtime.getRuntime().removeShutdownHook(this.stopOnExit);
		this.process.destroy();
		try {
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.process.destroyForcibly();
		}
		delete(this.directory);
	}

	@Override
	public String toString() {
		return "redis-server on port " + this.port;
	}

	private void signal(String name) {
		try {
			Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(this.process.pid())).inheritIO()
				.start();
			if (kill.waitFor() != 0) {
				throw new IllegalStateException("kill -" + name + " " + this.process.pid() + " failed");
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while signalling redis-server", ex);
		}
	}

	private Path socket() {
		return this.directory.resolve("redis.sock");
	}

	private static RedisProcess start(PortArguments portArguments, String... configuration) {
		Path directory = temporaryDirectory();
		// A free port can be taken by someone else before Redis binds it: then Redis exits, and we try another.
		for (int attempt = 1;; attempt++) {
			int port = freePort();
			List<String> command = new ArrayList<>(List.of("redis-server", "--bind", "127.0.0.1", "--dir",
					directory.toString(), "--unixsocket", directory.resolve("redis.sock").toString(),
					"--unixsocketperm", "700", "--save", "", "--appendonly", "no", "--daemonize", "no"));
			command.addAll(portArguments.of(port));
			command.addAll(Arrays.asList(configuration));
			RedisProcess redis = new RedisProcess(launch(command, directory.resolve("redis.log")), port, directory);
			if (redis.awaitReady()) {
				Runtime.getRuntime().addShutdownHook(redis.stopOnExit);
				return redis;
			}
			redis.process.destroyForcibly();
			if (attempt == START_ATTEMPTS) {
				throw new IllegalStateException("redis-server did not start; its log:\n" + log(directory));
			}
		}
	}

	private static Process launch(List<String> command, Path log) {
		try {
			return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("These tests need redis-server on the PATH (apt-get install redis-server, "
					+ "Redis 6 or later)", ex);
		}
	}

	private boolean awaitReady() {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (this.process.isAlive() && System.nanoTime() < deadline) {
			// Redis opens its Unix socket after its ports, so an answer there means the port listens too.
			if (Files.exists(socket()) && answersPing()) {
				return true;
			}
			sleep();
		}
		return false;
	}

	private boolean answersPing() {
		try {
			return "PONG".equals(cli("PING"));
		}
		catch (IllegalStateException ex) {
			return false;
		}
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static Path temporaryDirectory() {
		try {
			return Files.createTempDirectory("modelgate-redis-process-");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String log(Path directory) {
		try {
			return Files.readString(directory.resolve("redis.log"));
		}
		catch (IOException ex) {
			return "(unreadable: " + ex.getMessage() + ")";
		}
	}

	private static void delete(Path directory) {
		try (Stream<Path> paths = Files.walk(directory)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static void sleep() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for redis-server", ex);
		}
	}

	@FunctionalInterface
	private interface PortArguments {

		List<String> of(int port);

	}

}
