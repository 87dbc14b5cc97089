package dev.modelgate.idempotency.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.testsupport.RedisProcess;
import dev.modelgate.idempotency.testsupport.TestCertificates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The auto-configured Redis store as the README sets it up for production, on a
 * {@code redis-server} that speaks only TLS: Spring Boot's {@code spring.data.redis.ssl.bundle}
 * naming a PEM bundle that trusts the server's certificate authority, and the user that the
 * README's ACL line creates, run as written.
 *
 * <p>Both Boot lines run these tests (the Boot 3 module compiles this source), with the same
 * properties: a subclass names its line's Redis auto-configuration, the one thing that differs.
 */
@Tag("boot")
abstract class AbstractRedisStoreTlsTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	private static final String PASSWORD = "store-secret";

	@TempDir
	static Path directory;

	private static RedisProcess redis;

	private static TestCertificates certificates;

	private final LineHealth health;

	private final ApplicationContextRunner contextRunner;

	/**
	 * @param redisAutoConfiguration the Boot line's Redis auto-configuration
	 * @param health the Boot line's idempotency health
	 */
	protected AbstractRedisStoreTlsTests(Class<?> redisAutoConfiguration, LineHealth health) {
		this.health = health;
		this.contextRunner = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, redisAutoConfiguration,
					ModelgateIdempotencyAutoConfiguration.class,
					health.autoConfiguration()))
			.withPropertyValues("modelgate.idempotency.store=redis", "spring.data.redis.timeout=5s",
					"spring.data.redis.ssl.bundle=redis");
	}

	@BeforeAll
	static void startRedisOverTls() throws IOException {
		certificates = TestCertificates.create(Files.createDirectory(directory.resolve("server")));
		redis = RedisProcess.startTls(certificates);
		createUserAsTheReadmeSays();
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Test
	void storeRecordsAndReplaysOverTlsAsTheReadmesUser() {
		this.contextRunner.withPropertyValues("spring.data.redis.host=localhost",
				"spring.data.redis.port=" + redis.port(), "spring.data.redis.username=modelgate",
				"spring.data.redis.password=" + PASSWORD,
				"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + certificates.caCertificate())
			.run((context) -> {
				assertThat(this.health.read(context).status()).isEqualTo("UP");
				IdempotencyStore store = context.getBean(IdempotencyStore.class);
				String scope = UUID.randomUUID().toString().replace("-", "");
				String token = UUID.randomUUID().toString();
				StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[] { 0, 1, 2 });

				assertThat(store.begin(scope, "fp", token, LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
				assertThat(store.complete(scope, token, outcome, LONG)).isTrue();
				BeginResult replay = store.begin(scope, "fp", UUID.randomUUID().toString(), LONG);
				assertThat(replay.outcome()).isEqualTo(Outcome.COMPLETED);
				assertThat(replay.stored()).isEqualTo(outcome);
			});
	}

	@Test
	void serverCertifiedForAnotherHostIsAStoreFailure() throws IOException {
		TestCertificates elsewhere = TestCertificates.create(Files.createDirectory(directory.resolve("elsewhere")),
				"DNS:redis.elsewhere.invalid");
		try (RedisProcess misnamed = RedisProcess.startTls(elsewhere)) {
			// As the default user: the connection is refused before anyone logs in.
			this.contextRunner.withPropertyValues("spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + misnamed.port(),
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + elsewhere.caCertificate())
				.run((context) -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> context.getBean(IdempotencyStore.class).begin("scope", "fp", "token", LONG))
					.withStackTraceContaining("No subject alternative names matching IP address 127.0.0.1"));
		}
	}

	/** Runs the {@code ACL SETUSER} line of the stores guide as written, with this test's password. */
	private static void createUserAsTheReadmeSays() throws IOException {
		String line = Files.readAllLines(storesGuide())
			.stream()
			.filter((candidate) -> candidate.startsWith("ACL SETUSER modelgate on >PASSWORD "))
			.findFirst()
			.orElseThrow(() -> new AssertionError("docs/STORES.md gives no ACL SETUSER line"));
		assertThat(redis.cli(line.replace(">PASSWORD", ">" + PASSWORD).split(" "))).isEqualTo("OK");
	}

	/** The repository's docs/STORES.md, found up from the module's directory, where tests run. */
	private static Path storesGuide() {
		for (Path directory = Path.of("").toAbsolutePath(); directory != null; directory = directory.getParent()) {
			if (Files.isRegularFile(directory.resolve("docs/STORES.md"))) {
				return directory.resolve("docs/STORES.md");
			}
		}
		throw new AssertionError("No docs/STORES.md above " + Path.of("").toAbsolutePath());
	}

}
