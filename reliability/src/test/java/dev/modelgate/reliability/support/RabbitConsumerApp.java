package dev.modelgate.reliability.support;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumer application {@code consumers/rabbitmq-postgresql} as its own JVM ({@code java -jar} its executable
 * jar): a {@code @Transactional @IdempotentListener} that books each message as a row, on the RabbitMQ server of this
 * machine and a PostgreSQL of the suite's own. Two of them, one after the other, share both.
 */
public final class RabbitConsumerApp implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final ManagedProcess process;

	private RabbitConsumerApp(ManagedProcess process) {
		this.process = process;
	}

	/**
	 * Starts the application and waits until it has started (its listener consumes from then on).
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 * @param postgres where the bookings and the idempotency records are
	 * @param queue the queue it consumes, declared at its start
	 * @param arguments further application properties, as {@code --name=value}
	 */
	public static RabbitConsumerApp start(String scenario, String name, PostgresServer postgres, String queue,
			String... arguments) {
		List<String> command = new ArrayList<>(List.of(Binaries.java(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-jar", jar().toString(), "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		Map<String, String> environment = new HashMap<>(postgres.gatewayEnvironment());
		environment.remove("SPRING_PROFILES_ACTIVE");
		environment.put("CONSUMER_QUEUE", queue);
		environment.put("RABBITMQ_HOST", Rabbit.host());
		environment.put("RABBITMQ_PORT", Integer.toString(Rabbit.port()));
		ManagedProcess process = ManagedProcess.start(name, command, environment, WorkDirectories.log(scenario, name));
		RabbitConsumerApp app = new RabbitConsumerApp(process);
		try {
			process.awaitLog("Started RabbitmqPostgresqlApplication", START_TIMEOUT);
			return app;
		}
		catch (RuntimeException ex) {
			app.close();
			throw ex;
		}
	}

	public ManagedProcess process() {
		return this.process;
	}

	/** SIGKILL. */
	public void kill() {
		this.process.kill();
	}

	/** SIGTERM, and waits until it has exited: its listener container stops and its connection closes. */
	public void stop() {
		this.process.signal("TERM");
		this.process.awaitExit(Duration.ofSeconds(60));
	}

	@Override
	public void close() {
		this.process.close();
	}

	private static Path jar() {
		String location = System.getProperty("reliability.rabbitConsumerJar");
		Path jar = (location != null) ? Paths.get(location) : null;
		if (jar == null || !Files.isRegularFile(jar)) {
			throw new IllegalStateException("The RabbitMQ consumer's jar is missing (" + location + "). Build it with "
					+ "the suite: ./mvnw -B -pl reliability -am verify");
		}
		return jar;
	}

}
