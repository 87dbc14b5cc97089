package dev.modelgate.idempotency.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis primary and one replica on loopback ({@code redis-server} on free ports, nothing
 * persisted), started for a benchmark and stopped after it.
 */
final class PrimaryAndReplica implements AutoCloseable {

	private final List<Process> processes = new ArrayList<>();

	private final Path directory;

	private final int primaryPort;

	private PrimaryAndReplica() throws IOException {
		this.directory = Files.createTempDirectory("modelgate-benchmark-redis");
		this.primaryPort = freePort();
	}

	/** Starts both and waits until the replica is in sync. */
	static PrimaryAndReplica start() {
		try {
			PrimaryAndReplica redis = new PrimaryAndReplica();
			int replicaPort = freePort();
			redis.launch(redis.primaryPort);
			redis.launch(replicaPort, "--replicaof", "127.0.0.1", Integer.toString(redis.primaryPort));
			redis.await(redis.primaryPort, "INFO replication", "state=online");
			return redis;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Starts a primary alone, without a replica. */
	static PrimaryAndReplica startPrimaryOnly() {
		try {
			PrimaryAndReplica redis = new PrimaryAndReplica();
			redis.launch(redis.primaryPort);
			return redis;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	int primaryPort() {
		return this.primaryPort;
	}

	private void launch(int port, String... arguments) throws IOException {
		List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind",
				"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.directory.toString(), "--dbfilename",
				"dump-" + port + ".rdb"));
		command.addAll(List.of(arguments));
		this.processes.add(new ProcessBuilder(command).redirectErrorStream(true)
			.redirectOutput(this.directory.resolve("redis-" + port + ".log").toFile())
			.start());
		await(port, "PING", "PONG");
	}

	private void await(int port, String command, String expected) throws IOException {
		List<String> cli = new ArrayList<>(List.of("redis-cli", "-p", Integer.toString(port)));
		cli.addAll(List.of(command.split(" ")));
		for (int attempt = 0; attempt < 400; attempt++) {
			Process process = new ProcessBuilder(cli).redirectErrorStream(true).start();
			if (new String(process.getInputStream().readAllBytes()).contains(expected)) {
				return;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		}
		throw new IllegalStateException("Redis on port " + port + " did not answer " + expected + " to " + command);
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	@Override
	public void close() {
		this.processes.forEach(Process::destroyForcibly);
	}

}
