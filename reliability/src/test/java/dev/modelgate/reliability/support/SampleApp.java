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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One sample gateway, as its own JVM ({@code java -jar sample-app/target/sample-app-*.jar}) on a
 * port of its own, talking to the suite's {@link CountingUpstream} and to a store of the suite's
 * own. Several can share one store, which is the deployment the guarantees are about.
 */
public final class SampleApp implements AutoCloseable {

	private static final Duration START_TIMEOUT = Duration.ofSeconds(120);

	private static final HttpClient probe = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(1))
		.build();

	private final String name;

	private final int port;

	private final ManagedProcess process;

	private SampleApp(String name, int port, ManagedProcess process) {
		this.name = name;
		this.port = port;
		this.process = process;
	}

	/**
	 * Starts gateways in parallel (a JVM takes seconds to start) and waits until all of them answer.
	 * If one fails to start, the others are stopped too.
	 */
	public static List<SampleApp> startAll(List<Builder> builders) {
		List<SampleApp> apps = new ArrayList<>();
		try {
			builders.forEach((builder) -> apps.add(builder.launch()));
			List<CompletableFuture<Void>> ready = apps.stream()
				.map((app) -> CompletableFuture.runAsync(app::awaitReady))
				.toList();
			CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).join();
			return apps;
		}
		catch (CompletionException ex) {
			apps.forEach(SampleApp::close);
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : ex;
		}
		catch (RuntimeException ex) {
			apps.forEach(SampleApp::close);
			throw ex;
		}
	}

	/**
	 * @param scenario names the log directory
	 * @param name names the process and its log file
	 */
	public static Builder builder(String scenario, String name) {
		return new Builder(scenario, name);
	}

	public String name() {
		return this.name;
	}

	public int port() {
		return this.port;
	}

	public URI chatCompletions() {
		return URI.create("http://127.0.0.1:" + this.port + "/v1/chat/completions");
	}

	public URI agentRuns() {
		return URI.create("http://127.0.0.1:" + this.port + "/v1/agent/runs");
	}

	public ManagedProcess process() {
		return this.process;
	}

	/** SIGKILL. */
	public void kill() {
		this.process.kill();
	}

	private void awaitReady() {
		this.process.awaitCondition(this::answersReadiness, "answer on /readyz", START_TIMEOUT);
	}

	/**
	 * The readiness probe on the application port (Actuator itself is on the management port). Any
	 * answer will do: the gateway is meant to serve whatever state its store is in.
	 */
	private boolean answersReadiness() {
		try {
			HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/readyz"))
				.timeout(Duration.ofSeconds(2))
				.build();
			probe.send(request, HttpResponse.BodyHandlers.discarding());
			return true;
		}
		catch (IOException ex) {
			return false;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted", ex);
		}
	}

	@Override
	public void close() {
		this.process.close();
	}

	@Override
	public String toString() {
		return this.name + " on port " + this.port;
	}

	/** What to start: the store, the upstream, and any further gateway properties. */
	public static final class Builder {

		private final String scenario;

		private final String name;

		private final List<String> arguments = new ArrayList<>();

		private final List<String> jvmOptions = new ArrayList<>();

		private final Map<String, String> environment = new HashMap<>();

		private Builder(String scenario, String name) {
			this.scenario = scenario;
			this.name = name;
		}

		public Builder store(StoreServer store) {
			this.arguments.addAll(store.gatewayArguments());
			this.environment.putAll(store.gatewayEnvironment());
			return this;
		}

		public Builder upstream(CountingUpstream upstream) {
			return property("modelgate.provider.base-url", upstream.baseUrl());
		}

		/** A gateway property, passed as {@code --name=value}. */
		public Builder property(String name, String value) {
			this.arguments.add("--" + name + "=" + value);
			return this;
		}

		/**
		 * Runs the ahead-of-time processed application ({@code -Dspring.aot.enabled=true}): the bean
		 * definitions generated at build time, with the configuration the build saw.
		 */
		public Builder aot() {
			this.jvmOptions.add("-Dspring.aot.enabled=true");
			return this;
		}

		/** Lets requests pause at the fault points (see {@code dev.modelgate.sample.faults}). */
		public Builder faults() {
			return property("modelgate.sample.faults.enabled", "true");
		}

		public SampleApp start() {
			return startAll(List.of(this)).get(0);
		}

		private SampleApp launch() {
			int port = Ports.free();
			List<String> command = new ArrayList<>(List.of(Binaries.java(), "-Xmx384m", "-XX:+UseSerialGC",
					"-XX:TieredStopAtLevel=1", "-Xss512k"));
			command.addAll(this.jvmOptions);
			// A management port of its own (the sample's fixed 8081 would clash between gateways); no test reads it.
			command.addAll(List.of("-jar", jar().toString(), "--server.port=" + port, "--management.server.port=0",
					"--spring.main.banner-mode=off"));
			command.addAll(this.arguments);
			ManagedProcess process = ManagedProcess.start(this.name, command, this.environment,
					WorkDirectories.log(this.scenario, this.name));
			return new SampleApp(this.name, port, process);
		}

		private static Path jar() {
			String location = System.getProperty("reliability.sampleAppJar");
			Path jar = (location != null) ? Paths.get(location) : null;
			if (jar == null || !Files.isRegularFile(jar)) {
				throw new IllegalStateException("The sample gateway's jar is missing (" + location + "). Build it with "
						+ "the suite: ./mvnw -B -pl reliability -am verify");
			}
			return jar;
		}

	}

}
