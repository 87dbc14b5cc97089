package dev.modelgate.consumers.redis;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis outage as an application built from the README sees it: no Redis settings but the host and
 * port, Lettuce as Spring Boot configures it with the starter. During the outage every keyed request
 * is refused with 503 at once (not after the operation timeout); once Redis is back, the store serves
 * again within about a second, after a short outage and after a long one (Lettuce's own reconnection
 * backs off up to 30 s). The test runs a {@code redis-server} of its own, which it stops and starts
 * again on the same port.
 */
@Tag("process")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class RedisOnlyOutageTests {

	/** Well under the 2 s operation timeout that a request waited before. */
	private static final Duration REFUSED_WITHIN = Duration.ofMillis(500);

	/** What the store promises is about 1 s; the rest is slack for a loaded machine. */
	private static final Duration BACK_WITHIN = Duration.ofSeconds(3);

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	private static final OwnRedis REDIS = new OwnRedis();

	@LocalServerPort
	private int port;

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", () -> "127.0.0.1");
		registry.add("spring.data.redis.port", REDIS::port);
	}

	@AfterAll
	static void stopRedis() {
		REDIS.stop();
	}

	@Test
	void keyedRequestsAreRefusedAtOnceDuringAnOutageAndServedAgainSoonAfterItWhateverItsLength() throws Exception {
		assertThat(post().statusCode()).isEqualTo(201);
		for (Duration outage : List.of(Duration.ofSeconds(5), Duration.ofSeconds(60))) {
			REDIS.stop();
			List<Long> refusals = new ArrayList<>();
			long end = System.nanoTime() + outage.toNanos();
			while (System.nanoTime() < end) {
				long start = System.nanoTime();
				HttpResponse<String> refused = post();
				long took = System.nanoTime() - start;
				assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
				refusals.add(TimeUnit.NANOSECONDS.toMillis(took));
				Thread.sleep(100); // the client's pace during the outage, not a wait for a condition
			}
			// The first request may meet a connection that Lettuce does not yet know is gone.
			List<Long> known = refusals.subList(1, refusals.size());
			assertThat(known).as("refusal times (ms) during a %s outage", outage)
				.allSatisfy((millis) -> assertThat(millis).isLessThan(REFUSED_WITHIN.toMillis()));

			REDIS.start();
			long back = System.nanoTime();
			await().atMost(BACK_WITHIN).pollInterval(Duration.ofMillis(50)).until(() -> post().statusCode() == 201);
			System.out.printf("Outage of %s: %d refusals, the slowest %d ms; served again %d ms after Redis was back%n",
					outage, refusals.size(), refusals.stream().mapToLong(Long::longValue).max().orElse(0),
					TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - back));
		}
	}

	private HttpResponse<String> post() throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.POST(HttpRequest.BodyPublishers.ofString("{\"item\":\"book\",\"quantity\":1}"))
			.timeout(Duration.ofSeconds(30))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** A {@code redis-server} on a port of its own, started again on the same port after a stop. */
	static final class OwnRedis {

		private final int port;

		private final Path directory;

		private Process process;

		OwnRedis() {
			try (ServerSocket socket = new ServerSocket(0)) {
				this.port = socket.getLocalPort();
				this.directory = Files.createTempDirectory("redis-outage");
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
			start();
		}

		int port() {
			return this.port;
		}

		void start() {
			try {
				this.process = new ProcessBuilder("redis-server", "--port", Integer.toString(this.port), "--bind",
						"127.0.0.1", "--save", "", "--appendonly", "no", "--dir", this.directory.toString())
					.redirectErrorStream(true)
					.redirectOutput(this.directory.resolve("redis.log").toFile())
					.start();
			}
			catch (IOException ex) {
				throw new IllegalStateException("redis-server must be on the PATH for this test", ex);
			}
			await().atMost(Duration.ofSeconds(20)).until(this::accepts);
		}

		void stop() {
			if (this.process != null) {
				this.process.destroy();
				await().atMost(Duration.ofSeconds(20)).until(() -> !this.process.isAlive() && !accepts());
			}
		}

		private boolean accepts() {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				return true;
			}
			catch (IOException ex) {
				return false;
			}
		}

	}

}
