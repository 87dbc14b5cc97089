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
 * A Kafka consumer application as its own JVM ({@code java -jar} its executable jar), on a Kafka broker the suite runs
 * in its own JVM (so that it outlives the consumer): {@code consumers/kafka-postgresql}, a
 * {@code @Transactional @IdempotentListener} that books each record as a row in a PostgreSQL of the suite's own, or
 * {@code consumers/kafka-redis}, whose charges and records are in a Redis of the suite's own. Two of them, one after
 * the other, share the broker and the store.
 */
public final class KafkaConsumerApp implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final ManagedProcess process;

	private KafkaConsumerApp(ManagedProcess process) {
		this.process = process;
	}

	/**
	 * Starts {@code consumers/kafka-postgresql} and waits until it has started (its listener consumes from then on).
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 * @param postgres where the bookings and the idempotency records are
	 * @param bootstrapServers the Kafka broker
	 * @param topic the topic it consumes, created at its start
	 * @param arguments further application properties, as {@code --name=value}
	 */
	public static KafkaConsumerApp start(String scenario, String name, PostgresServer postgres, String bootstrapServers,
			String topic, String... arguments) {
		return start(scenario, name, "reliability.kafkaConsumerJar", "Started KafkaPostgresqlApplication",
				postgres.gatewayEnvironment(), bootstrapServers, topic, arguments);
	}

	/**
	 * Starts {@code consumers/kafka-redis} (an {@code @IdempotentListener} whose charges and records are in Redis) and
	 * waits until it has started.
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 * @param redis where the charges and the idempotency records are
	 * @param bootstrapServers the Kafka broker
	 * @param topic the topic it consumes, created at its start
	 * @param arguments further application properties, as {@code --name=value}
	 */
	public static KafkaConsumerApp startOnRedis(String scenario, String name, RedisServer redis,
			String bootstrapServers, String topic, String... arguments) {
		return start(scenario, name, "reliability.kafkaRedisConsumerJar", "Started KafkaRedisApplication",
				redis.gatewayEnvironment(), bootstrapServers, topic, arguments);
	}

	private static KafkaConsumerApp start(String scenario, String name, String jarProperty, String started,
			Map<String, String> storeEnvironment, String bootstrapServers, String topic, String... arguments) {
		List<String> command = new ArrayList<>(List.of(Binaries.java(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-jar", jar(jarProperty).toString(), "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		Map<String, String> environment = new HashMap<>(storeEnvironment);
		environment.remove("SPRING_PROFILES_ACTIVE");
		environment.put("CONSUMER_TOPIC", topic);
		environment.put("KAFKA_BOOTSTRAP_SERVERS", bootstrapServers);
		ManagedProcess process = ManagedProcess.start(name, command, environment, WorkDirectories.log(scenario, name));
		KafkaConsumerApp app = new KafkaConsumerApp(process);
		try {
			process.awaitLog(started, START_TIMEOUT);
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

	private static Path jar(String property) {
		String location = System.getProperty(property);
		Path jar = (location != null) ? Paths.get(location) : null;
		if (jar == null || !Files.isRegularFile(jar)) {
			throw new IllegalStateException("The Kafka consumer's jar is missing (" + location + "). Build it with "
					+ "the suite: ./mvnw -B -pl reliability -am verify");
		}
		return jar;
	}

}
