package dev.modelgate.fleet;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;

import dev.modelgate.consumers.redis.OrderController;
import dev.modelgate.consumers.redis.RedisOnlyApplication;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fleet halfway through its upgrade from Spring Boot 3.5 to Spring Boot 4: the same application runs on
 * Spring Boot 3.5 (in this JVM, with the Spring Boot 3 starter) and on Spring Boot 4 (the executable jar of
 * consumers/redis-only, with the Spring Boot 4 starter, in a process of its own), on one Redis with one key prefix.
 * A retry that the load balancer sends to the other line, with its JSON written in another order, is the same
 * request there (same scope, same fingerprint under Jackson 2 and Jackson 3) and is replayed, in both directions.
 */
@Tag("process")
class FleetUpgradeTests {

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	// One key space for both lines, apart from every other run on the same Redis.
	private static final String KEY_PREFIX = "modelgate:fleet-upgrade:" + UUID.randomUUID() + ":";

	private static final String CLIENT = "Bearer fleet-client";

	private static final String ORDER = "{\"item\":\"book\",\"quantity\":1,\"price\":12.50,\"tags\":[\"a\",\"b\"]}";

	// The same order as another client library writes it: other key order, white space and number forms.
	private static final String SAME_ORDER_REWRITTEN = "{ \"tags\": [\"a\", \"b\"], \"price\": 1.25e1,\n"
			+ "  \"quantity\": 1.0, \"item\": \"book\" }";

	private static final String OTHER_ORDER = "{\"item\":\"book\",\"quantity\":2,\"price\":12.50,\"tags\":[\"a\",\"b\"]}";

	private static ConfigurableApplicationContext boot3;

	private static Process boot4;

	private static Path boot4Log;

	private static URI boot3Orders;

	private static URI boot4Orders;

	@BeforeAll
	static void startBothLines() throws Exception {
		List<String> properties = List.of("--spring.data.redis.host=" + RedisTestServer.host(),
				"--spring.data.redis.port=" + RedisTestServer.port(),
				"--modelgate.idempotency.redis.key-prefix=" + KEY_PREFIX,
				"--modelgate.idempotency.client-identity-header=Authorization",
				// Generous: a cold instance's first Redis calls must not turn into 503s.
				"--modelgate.idempotency.operation-timeout=10s");
		boot4 = startBoot4(properties);
		List<String> boot3Arguments = new ArrayList<>(properties);
		boot3Arguments.add("--server.port=0");
		boot3 = new SpringApplicationBuilder(RedisOnlyApplication.class).run(boot3Arguments.toArray(String[]::new));
		assertThat(SpringBootVersion.getVersion()).as("this JVM's Spring Boot").startsWith("3.5.");
		int boot3Port = ((WebServerApplicationContext) boot3).getWebServer().getPort();
		boot3Orders = URI.create("http://127.0.0.1:" + boot3Port + "/orders");
		awaitBoot4();
	}

	@AfterAll
	static void stopBothLines() throws InterruptedException {
		if (boot3 != null) {
			boot3.close();
		}
		if (boot4 != null) {
			boot4.destroy();
			boot4.waitFor();
		}
	}

	@Test
	void requestAnsweredOnSpringBoot3IsReplayedOnSpringBoot4() throws Exception {
		String key = UUID.randomUUID().toString();
		int boot3Runs = boot3Handler().invocations();
		HttpResponse<byte[]> first = post(boot3Orders, key, ORDER);
		assertThat(first.statusCode()).as(describe(first)).isEqualTo(201);
		assertThat(boot3Handler().invocations() - boot3Runs).isEqualTo(1);

		HttpResponse<byte[]> retry = post(boot4Orders, key, SAME_ORDER_REWRITTEN);

		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).as(describe(retry)).hasValue("true");
		// The Spring Boot 3 instance's bytes (a fresh order id per run): the Spring Boot 4 handler did not run.
		assertThat(retry.body()).isEqualTo(first.body());
	}

	@Test
	void requestAnsweredOnSpringBoot4IsReplayedOnSpringBoot3() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(boot4Orders, key, SAME_ORDER_REWRITTEN);
		assertThat(first.statusCode()).as(describe(first)).isEqualTo(201);
		int boot3Runs = boot3Handler().invocations();

		HttpResponse<byte[]> retry = post(boot3Orders, key, ORDER);

		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(201);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).as(describe(retry)).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(boot3Handler().invocations()).isEqualTo(boot3Runs);
	}

	@Test
	void keyReusedForAnotherRequestIsRefusedOnTheOtherLine() throws Exception {
		String key = UUID.randomUUID().toString();
		assertThat(post(boot3Orders, key, ORDER).statusCode()).isEqualTo(201);

		HttpResponse<byte[]> reused = post(boot4Orders, key, OTHER_ORDER);

		assertThat(reused.statusCode()).as(describe(reused)).isEqualTo(422);
		assertThat(MediaType.parseMediaType(reused.headers().firstValue("Content-Type").orElseThrow())
			.equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON)).isTrue();
		assertThat(new String(reused.body(), StandardCharsets.UTF_8)).contains("\"idempotency_key_reused\"");
	}

	@Test
	void anotherClientsKeyIsNotReplayedOnTheOtherLine() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(boot3Orders, key, ORDER);
		HttpRequest otherClient = request(boot4Orders, key, ORDER).header("Authorization", "Bearer another-client")
			.build();

		HttpResponse<byte[]> other = HTTP.send(otherClient, HttpResponse.BodyHandlers.ofByteArray());

		assertThat(other.statusCode()).as(describe(other)).isEqualTo(201);
		assertThat(other.headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(other.body()).isNotEqualTo(first.body());
	}

	private static OrderController boot3Handler() {
		return boot3.getBean(OrderController.class);
	}

	private static HttpResponse<byte[]> post(URI uri, String key, String json) throws Exception {
		return HTTP.send(request(uri, key, json).header("Authorization", CLIENT).build(),
				HttpResponse.BodyHandlers.ofByteArray());
	}

	private static HttpRequest.Builder request(URI uri, String key, String json) {
		return HttpRequest.newBuilder(uri)
			.timeout(Duration.ofSeconds(30))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(json));
	}

	private static Process startBoot4(List<String> properties) throws IOException {
		String jar = System.getProperty("boot4.application.jar");
		assertThat(jar).as("system property boot4.application.jar (set by the build)").isNotBlank();
		assertThat(Paths.get(jar)).as("the Spring Boot 4 application, packaged by consumers/redis-only").exists();
		int port;
		try (ServerSocket socket = new ServerSocket(0)) {
			port = socket.getLocalPort();
		}
		boot4Orders = URI.create("http://127.0.0.1:" + port + "/orders");
		List<String> command = new ArrayList<>(List.of(javaCommand(), "-XX:TieredStopAtLevel=1", "-jar", jar,
				"--server.port=" + port));
		command.addAll(properties);
		boot4Log = Paths.get("target", "boot4-application.log");
		return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(boot4Log.toFile()).start();
	}

	/** Waits until the Spring Boot 4 instance answers HTTP, or fails with its log. */
	private static void awaitBoot4() throws Exception {
		Instant deadline = Instant.now().plus(Duration.ofSeconds(90));
		HttpRequest probe = HttpRequest.newBuilder(boot4Orders).timeout(Duration.ofSeconds(5)).GET().build();
		while (Instant.now().isBefore(deadline)) {
			if (!boot4.isAlive()) {
				throw new AssertionError("The Spring Boot 4 instance exited with " + boot4.exitValue() + ":\n" + log());
			}
			try {
				HTTP.send(probe, HttpResponse.BodyHandlers.discarding());
				assertThat(log()).as("the Spring Boot 4 instance's log").contains(":: Spring Boot ::", "(v4.");
				return;
			}
			catch (ConnectException ex) {
				Thread.sleep(200);
			}
		}
		throw new AssertionError("The Spring Boot 4 instance did not answer within 90s:\n" + log());
	}

	private static String log() throws IOException {
		return Files.readString(boot4Log);
	}

	private static String javaCommand() {
		return ProcessHandle.current()
			.info()
			.command()
			.orElse(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
	}

	private static String describe(HttpResponse<byte[]> response) {
		return response.statusCode() + " " + response.headers().map() + " "
				+ new String(response.body(), StandardCharsets.UTF_8);
	}

}
