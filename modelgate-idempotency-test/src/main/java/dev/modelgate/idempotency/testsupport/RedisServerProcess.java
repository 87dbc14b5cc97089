package dev.modelgate.idempotency.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A {@code redis-server} of a test's own, started as a child process on a free port, for tests that need
 * a server configured in a way the shared one is not (an eviction policy, ACL users). It has no
 * persistence and is killed by {@link #close()}. The {@code redis-server} program must be on the
 * {@code PATH} (or named by {@code REDIS_SERVER}); without it, starting fails rather than skips.
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final Process process;

	private final int port;

	private final Path log;

	private RedisServerProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts a server and waits until it answers.
	 * @param arguments settings added to the command line, such as {@code "--maxmemory-policy", "allkeys-lru"}
	 * @return the running server
	 */
	public static RedisServerProcess start(String... arguments) {
		int port = freePort();
		List<String> command = new ArrayList<>(List.of(System.getenv().getOrDefault("REDIS_SERVER", "redis-server"),
				"--port", Integer.toString(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
				"--daemonize", "no", "--protected-mode", "no"));
		command.addAll(Arrays.asList(arguments));
		Path log;
		Process process;
		try {
			log = Files.createTempFile("redis-" + port + "-", ".log");
			process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not start " + String.join(" ", command) + ": install Redis 7 "
					+ "(redis-server on the PATH), or name the program with REDIS_SERVER", ex);
		}
		RedisServerProcess server = new RedisServerProcess(process, port, log);
		server.awaitPing();
		return server;
	}

	/** {@return the server's host} */
	public String host() {
		return "127.0.0.1";
	}

	/** {@return the server's port} */
	public int port() {
		return this.port;
	}

	/** {@return a started connection factory for the server's default user; the caller destroys it} */
	public LettuceConnectionFactory connectionFactory() {
		return connectionFactory(null, null);
	}

	/**
	 * {@return a started connection factory for an ACL user; the caller destroys it}
	 * @param username the user, or {@code null} for the default user
	 * @param password the user's password, or {@code null} for none
	 */
	public LettuceConnectionFactory connectionFactory(@Nullable String username, @Nullable String password) {
		RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(host(), this.port);
		if (username != null) {
			configuration.setUsername(username);
		}
		if (password != null) {
			configuration.setPassword(password);
		}
		LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * Runs one command as the default user, such as {@code ACL SETUSER ...}.
	 * @param command the command's name
	 * @param arguments its arguments
	 * @return the server's answer, as Spring Data Redis gives it
	 */
	public @Nullable Object command(String command, String... arguments) {
		LettuceConnectionFactory factory = connectionFactory();
		try (RedisConnection connection = factory.getConnection()) {
			return connection.execute(command, Arrays.stream(arguments).map(String::getBytes).toArray(byte[][]::new));
		}
		finally {
			factory.destroy();
		}
	}

	private void awaitPing() {
		long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("redis-server on port " + this.port + " exited: " + output());
			}
			if (RedisTestServer.answersPing(host(), this.port)) {
				return;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		close();
		throw new IllegalStateException("redis-server on port " + this.port + " did not answer PING within "
				+ START_TIMEOUT + ": " + output());
	}

	private String output() {
		try {
			return Files.readString(this.log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Kills the server and waits until it is gone. */
	@Override
	public void close() {
		this.process.destroyForcibly();
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
			Files.deleteIfExists(this.log);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
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

	@Override
	public String toString() {
		return "redis-server on port " + this.port;
	}

}
