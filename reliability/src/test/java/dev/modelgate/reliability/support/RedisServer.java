package dev.modelgate.reliability.support;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A {@code redis-server} of the suite's own, on a port of its own, with its data in a temporary
 * directory. It can be killed, restarted on the same port (with whatever it persisted) and frozen,
 * which is how the suite takes the store away from running gateways.
 */
public final class RedisServer implements StoreServer {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

	private final String scenario;

	private final String name;

	private final int port;

	private final boolean persistent;

	private final boolean clusterNode;

	private final Path directory;

	private ManagedProcess process;

	private int starts;

	/** The port of the primary it replicates, or 0 when it is a primary. */
	private int replicaOf;

	private RedisServer(String scenario, String name, int port, boolean persistent, boolean clusterNode) {
		this.scenario = scenario;
		this.name = name;
		this.port = port;
		this.persistent = persistent;
		this.clusterNode = clusterNode;
		this.directory = WorkDirectories.temporary(name);
	}

	/**
	 * A throw-away Redis: no snapshots, no append-only file, so a restart comes back empty.
	 * @param scenario the scenario it serves (names its log directory)
	 */
	public static RedisServer start(String scenario) {
		return start(new RedisServer(scenario, "redis", Ports.free(), false, false));
	}

	/**
	 * A Redis that writes every change to its append-only file before answering
	 * ({@code appendfsync always}), so that a restart after a kill keeps every acknowledged record.
	 */
	public static RedisServer startPersistent(String scenario) {
		return start(new RedisServer(scenario, "redis", Ports.free(), true, false));
	}

	/** One node of a Redis Cluster, not yet part of any cluster. */
	static RedisServer startClusterNode(String scenario, int port) {
		return start(new RedisServer(scenario, "redis-node-" + port, port, false, true));
	}

	/**
	 * A throw-away Redis that replicates the one on {@code primaryPort}.
	 * @param scenario the scenario it serves (names its log directory)
	 * @param name names its log files
	 */
	static RedisServer startReplica(String scenario, String name, int primaryPort) {
		RedisServer server = new RedisServer(scenario, name, Ports.free(), false, false);
		server.replicaOf = primaryPort;
		return start(server);
	}

	/** A throw-away primary that names its log files {@code name}. */
	static RedisServer startPrimary(String scenario, String name) {
		return start(new RedisServer(scenario, name, Ports.free(), false, false));
	}

	private static RedisServer start(RedisServer server) {
		server.launch();
		return server;
	}

	@Override
	public String name() {
		return this.clusterNode ? "redis-cluster-node" : (this.persistent ? "redis-aof" : "redis");
	}

	public int port() {
		return this.port;
	}

	/** Nothing: the environment selects the sample app's {@code redis} profile. */
	@Override
	public List<String> gatewayArguments() {
		return List.of();
	}

	/** The sample app's {@code redis} profile (store, host, port, 2s timeouts), as its README runs it. */
	@Override
	public Map<String, String> gatewayEnvironment() {
		return Map.of("SPRING_PROFILES_ACTIVE", "redis", "REDIS_HOST", "127.0.0.1", "REDIS_PORT",
				Integer.toString(this.port));
	}

	/** Whether it answers {@code PING} with {@code PONG} right now. */
	public boolean ping() {
		try {
			return "PONG".equals(command("PING"));
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * Sends one command and answers the reply's first line without its type marker (enough for the
	 * status and integer replies and the bulk-string {@code INFO} headers the suite reads).
	 */
	public String command(String... arguments) throws IOException {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 500);
			socket.setSoTimeout(2000);
			StringBuilder request = new StringBuilder("*" + arguments.length + "\r\n");
			for (String argument : arguments) {
				request.append('$').append(argument.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
					.append(argument).append("\r\n");
			}
			socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
			BufferedReader reply = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
			String first = reply.readLine();
			if (first == null) {
				throw new IOException("Connection closed by Redis on port " + this.port);
			}
			if (first.startsWith("$")) {
				int length = Integer.parseInt(first.substring(1));
				if (length < 0) {
					return null;
				}
				char[] body = new char[length];
				int read = 0;
				while (read < length) {
					int n = reply.read(body, read, length - read);
					if (n < 0) {
						break;
					}
					read += n;
				}
				return new String(body, 0, read);
			}
			return first.substring(1);
		}
	}

	/** SIGKILL: the store disappears at once, as in a crash. */
	public void kill() {
		this.process.kill();
	}

	/** Starts it again on the same port and directory, and waits until it answers. */
	public void restart() {
		if (this.process.isAlive()) {
			throw new IllegalStateException(this.name + " is still running");
		}
		launch();
	}

	/**
	 * Starts it again on the same port, as a replica of the Redis on {@code primaryPort}, as an
	 * operator brings a failed primary back after a failover; waits until it answers.
	 */
	void restartAsReplicaOf(int primaryPort) {
		this.replicaOf = primaryPort;
		restart();
	}

	/** SIGSTOP: connections stay open but nothing is answered, like a hung server or a partition. */
	public void freeze() {
		this.process.suspend();
	}

	/**
	 * SIGCONT, after {@link #freeze()}, and waits until it answers; it first runs every command that
	 * queued up meanwhile.
	 */
	public void thaw() {
		this.process.resume();
		this.process.awaitCondition(this::ping, "PONG", START_TIMEOUT);
	}

	private void launch() {
		List<String> command = new ArrayList<>(List.of(Binaries.redisServer(), "--port", Integer.toString(this.port),
				"--bind", "127.0.0.1", "--dir", this.directory.toString(), "--save", "", "--daemonize", "no",
				"--protected-mode", "no", "--loglevel", "notice"));
		if (this.persistent) {
			command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
		}
		else {
			command.addAll(List.of("--appendonly", "no"));
		}
		if (this.clusterNode) {
			command.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file",
					this.directory.resolve("nodes.conf").toString(), "--cluster-node-timeout", "5000"));
		}
		if (this.replicaOf != 0) {
			command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(this.replicaOf)));
		}
		this.starts++;
		this.process = ManagedProcess.start(this.name + ":" + this.port, command, Map.of(),
				WorkDirectories.log(this.scenario, this.name + "-" + this.port + "-start-" + this.starts));
		this.process.awaitCondition(this::ping, "PONG", START_TIMEOUT);
	}

	@Override
	public void close() {
		if (this.process != null) {
			this.process.close();
		}
		WorkDirectories.delete(this.directory);
	}

	@Override
	public String toString() {
		return this.name + " on port " + this.port;
	}

}
