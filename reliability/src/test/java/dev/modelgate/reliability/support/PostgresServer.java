package dev.modelgate.reliability.support;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A PostgreSQL cluster of the suite's own: {@code initdb} into a temporary directory, then the
 * {@code postgres} server in the foreground on a port of its own (its socket in that directory too),
 * so that the suite can crash it, restart it and freeze it like any other process. Run as the
 * {@code postgres} user when the suite runs as root, which PostgreSQL refuses.
 */
public final class PostgresServer implements StoreServer {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

	private static final String SERVICE_USER = "postgres";

	private final String scenario;

	private final int port;

	private final Path directory;

	private final Path data;

	private ManagedProcess process;

	private int starts;

	private PostgresServer(String scenario, int port, Path directory) {
		this.scenario = scenario;
		this.port = port;
		this.directory = directory;
		this.data = directory.resolve("data");
	}

	/**
	 * Creates a cluster and starts it.
	 * @param scenario the scenario it serves (names its log directory)
	 */
	public static PostgresServer start(String scenario) {
		PostgresServer server = new PostgresServer(scenario, Ports.free(), WorkDirectories.temporary("postgres"));
		try {
			server.initialize();
			server.launch();
			return server;
		}
		catch (RuntimeException ex) {
			server.close();
			throw ex;
		}
	}

	@Override
	public String name() {
		return "postgresql";
	}

	public int port() {
		return this.port;
	}

	@Override
	public List<String> gatewayArguments() {
		return List.of();
	}

	/**
	 * The sample app's {@code postgres} profile: the JDBC store (its table created at start-up) and the
	 * credit ledger, on one DataSource, as its README runs it.
	 */
	@Override
	public Map<String, String> gatewayEnvironment() {
		return Map.of("SPRING_PROFILES_ACTIVE", "postgres", "PGHOST", "127.0.0.1", "PGPORT",
				Integer.toString(this.port), "PGDATABASE", "postgres", "PGUSER", SERVICE_USER);
	}

	/** Whether the server accepts connections right now. */
	public boolean isReady() {
		try {
			ManagedProcess.run(Duration.ofSeconds(5), Binaries.postgres("pg_isready"), "-q", "-h", "127.0.0.1", "-p",
					Integer.toString(this.port));
			return true;
		}
		catch (IllegalStateException ex) {
			return false;
		}
	}

	/**
	 * Runs one SQL statement with {@code psql} and answers its unaligned, tuples-only output.
	 */
	public String sql(String statement) {
		return ManagedProcess.run(Duration.ofSeconds(30), Binaries.postgres("psql"), "-X", "-q", "-A", "-t", "-h",
				"127.0.0.1", "-p", Integer.toString(this.port), "-U", SERVICE_USER, "-d", "postgres", "-c", statement)
			.strip();
	}

	/** Rows in the sample app's {@code credit_charges} table: one per committed charge. */
	public long creditCharges() {
		return Long.parseLong(sql("SELECT count(*) FROM credit_charges"));
	}

	/**
	 * An immediate shutdown (SIGQUIT to the postmaster): every backend quits at once, nothing is
	 * flushed beyond what was committed, and the next start runs crash recovery, as after a crash.
	 */
	public void crash() {
		this.process.signal("QUIT");
		this.process.awaitExit(Duration.ofSeconds(30));
	}

	/** Starts it again on the same port and data directory, and waits until it accepts connections. */
	public void restart() {
		if (this.process.isAlive()) {
			throw new IllegalStateException("PostgreSQL on port " + this.port + " is still running");
		}
		launch();
	}

	/** SIGSTOP to the postmaster and every backend: connections stay open, nothing is answered. */
	public void freeze() {
		signalAll("STOP");
	}

	/** SIGCONT to all of them, after {@link #freeze()}, and waits until it accepts connections. */
	public void thaw() {
		signalAll("CONT");
		this.process.awaitCondition(this::isReady, "readiness", START_TIMEOUT);
	}

	/** Signals the postmaster and then each backend; one that exited meanwhile is no error. */
	private void signalAll(String signal) {
		this.process.signal(signal);
		ProcessHandle.of(this.process.pid()).ifPresent((postmaster) -> postmaster.descendants().forEach((child) -> {
			try {
				ManagedProcess.run(Duration.ofSeconds(10), "kill", "-" + signal, Long.toString(child.pid()));
			}
			catch (IllegalStateException ex) {
				if (child.isAlive()) {
					throw ex;
				}
			}
		}));
	}

	private void initialize() {
		if (isRoot()) {
			ManagedProcess.run(Duration.ofSeconds(10), "chown", SERVICE_USER + ":", this.directory.toString());
		}
		ManagedProcess.run(Duration.ofSeconds(120),
				asServiceUser(Binaries.postgres("initdb"), "-D", this.data.toString(), "-A", "trust", "-U", SERVICE_USER,
						"--no-sync", "-E", "UTF8", "--locale", "C"));
	}

	private void launch() {
		this.starts++;
		this.process = ManagedProcess.start("postgres:" + this.port,
				List.of(asServiceUser(Binaries.postgres("postgres"), "-D", this.data.toString(), "-p",
						Integer.toString(this.port), "-k", this.directory.toString(), "-c", "listen_addresses=127.0.0.1",
						"-c", "max_connections=200", "-c", "fsync=on")),
				Map.of(), WorkDirectories.log(this.scenario, "postgres-" + this.port + "-start-" + this.starts));
		this.process.awaitCondition(this::isReady, "readiness", START_TIMEOUT);
	}

	/** PostgreSQL will not run as root; {@code setpriv} switches user and then execs, keeping the pid. */
	private static String[] asServiceUser(String... command) {
		if (!isRoot()) {
			return command;
		}
		List<String> wrapped = new ArrayList<>(List.of("setpriv", "--reuid=" + SERVICE_USER, "--regid=" + SERVICE_USER,
				"--init-groups", "--"));
		wrapped.addAll(List.of(command));
		return wrapped.toArray(String[]::new);
	}

	private static boolean isRoot() {
		return "root".equals(System.getProperty("user.name"));
	}

	/** An immediate shutdown, so that no backend outlives the postmaster, then the data is deleted. */
	@Override
	public void close() {
		if (this.process != null) {
			if (this.process.isAlive()) {
				signalAll("CONT");
				this.process.signal("QUIT");
				this.process.awaitExit(Duration.ofSeconds(30));
			}
			this.process.close();
		}
		WorkDirectories.delete(this.directory);
	}

	@Override
	public String toString() {
		return "PostgreSQL on port " + this.port;
	}

}
