package dev.modelgate.reliability.support;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The consumer application {@code consumers/outbox-postgresql} as its own JVM ({@code java -jar} its executable jar):
 * a keyed {@code POST /signups} that publishes a welcome-mail event through Spring Modulith's JDBC registry, and an
 * {@code @IdempotentEventListener} that calls a mail API with a derived {@code Idempotency-Key}, on a PostgreSQL of
 * the suite's own. Two of them, one after the other, share it.
 */
public final class OutboxConsumerApp implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private final ManagedProcess process;

	private final int port;

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private OutboxConsumerApp(ManagedProcess process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts the application and waits until it has started.
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 * @param postgres where the signups, the publications and the idempotency records are
	 * @param mailApi the downstream it sends mails to
	 * @param arguments further application properties, as {@code --name=value}
	 */
	public static OutboxConsumerApp start(String scenario, String name, PostgresServer postgres, RecordingMailApi mailApi,
			String... arguments) {
		int port = Ports.free();
		List<String> command = new ArrayList<>(List.of(Binaries.java(), "-Xmx256m", "-XX:+UseSerialGC",
				"-XX:TieredStopAtLevel=1", "-jar", jar().toString(), "--spring.main.banner-mode=off"));
		command.addAll(List.of(arguments));
		Map<String, String> environment = new HashMap<>(postgres.gatewayEnvironment());
		environment.remove("SPRING_PROFILES_ACTIVE");
		environment.put("SERVER_PORT", Integer.toString(port));
		environment.put("MAIL_URL", mailApi.baseUrl());
		ManagedProcess process = ManagedProcess.start(name, command, environment, WorkDirectories.log(scenario, name));
		OutboxConsumerApp app = new OutboxConsumerApp(process, port);
		try {
			process.awaitLog("Started OutboxPostgresqlApplication", START_TIMEOUT);
			return app;
		}
		catch (RuntimeException ex) {
			app.close();
			throw ex;
		}
	}

	/**
	 * Sends {@code POST /signups} with {@code key}, without waiting for the answer (the answer of a process held
	 * after its commit never comes).
	 * @return the answer, when it comes
	 */
	public java.util.concurrent.CompletableFuture<HttpResponse<String>> signUpAsync(String key, String email) {
		return this.http.sendAsync(request(key, email), HttpResponse.BodyHandlers.ofString());
	}

	/** Sends {@code POST /signups} with {@code key} and answers the response. */
	public HttpResponse<String> signUp(String key, String email) {
		try {
			return this.http.send(request(key, email), HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private HttpRequest request(String key, String email) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/signups"))
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"" + email + "\"}"))
			.build();
	}

	public ManagedProcess process() {
		return this.process;
	}

	/** SIGKILL. */
	public void kill() {
		this.process.kill();
	}

	@Override
	public void close() {
		this.process.close();
	}

	private static Path jar() {
		String location = System.getProperty("reliability.outboxConsumerJar");
		Path jar = (location != null) ? Paths.get(location) : null;
		if (jar == null || !Files.isRegularFile(jar)) {
			throw new IllegalStateException("The outbox consumer's jar is missing (" + location + "). Build it with "
					+ "the suite: ./mvnw -B -pl reliability -am verify");
		}
		return jar;
	}

}
