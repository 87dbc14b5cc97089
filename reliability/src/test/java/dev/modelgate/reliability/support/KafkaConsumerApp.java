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
 * The consumer application {@code consumers/kafka-postgresql} as its own JVM ({@code java -jar} its executable
 * jar): a {@code @Transactional @IdempotentListener} that books each record as a row, on a Kafka broker the suite runs
 * in its own JVM (so that it outlives the consumer) and a PostgreSQL of the suite's own. Two of them, one after the
 * other, share both.
 */
public final class KafkaConsumerApp implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final ManagedProcess process;

	private KafkaConsumerApp(ManagedProcess process) {
		this.process = process;
	}

	/**
	 * Starts the application and waits until it has started (its listener consumes from then on).
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 * @param postgres where the bookings and the idempotency records are
	 * @param bootstrapServers the Kafka broker
	 * @param topic the topic it consumes, created at its start
	 * @param arguments further application properties, as {@code --name=value}
	 */
	public static KafkaConsumerApp start(String scenario, String name, PostgresServer postgres, String bootstrapServers,
			String topic, String... arguments) {
		List<String> command = new ArrayList<>(List.of(Binaries.java(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-jar", jar().toString(), "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		Map<String, String> environment = new HashMap<>(postgres.gatewayEnvironment());
		environment.remove("SPRING_PROFILES_ACTIVE");
		environment.put("CONSUMER_TOPIC", topic);
		environment.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
		ManagedProcess process = ManagedProcess.start(name, command, environment, WorkDirectories.log(scenario, name));
		KafkaConsumerApp app = new KafkaConsumerApp(process);
		try {
			process.awaitLog("Started KafkaPostgresqlApplication", START_TIMEOUT);
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

	/** SIGTERM, and waits until it has exited: its listener container stops and leaves the group. */
	public void stop() {
		this.process.signal("TERM");
		this.process.awaitExit(Duration.ofSeconds(60));
	}

	@Override
	public void close() {
		this.process.close();
	}

	private static Path jar() {
		String location = System.getProperty("reliability.kafkaConsumerJar");
		Path jar = (location != null) ? Paths.get(location) : null;
		if (jar == null || !Files.isRegularFile(jar)) {
			throw new IllegalStateException("The Kafka consumer's jar is missing (" + location + "). Build it with "
					+ "the suite: ./mvnw -B -pl reliability -am verify");
		}
		return jar;
	}

}
