package dev.modelgate.idempotency.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
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
 * The auto-configured Redis store over TLS, configured as the README says: Spring Boot's
 * {@code spring.data.redis.ssl.bundle} naming a PEM bundle that trusts the server's certificate
 * authority, on a {@code redis-server} that speaks only TLS.
 */
class RedisStoreTlsTests {

	private static final Duration LONG = Duration.ofMinutes(5);

	@TempDir
	static Path directory;

	private static RedisProcess redis;

	private static TestCertificates certificates;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DataRedisAutoConfiguration.class,
				ModelgateIdempotencyAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=redis", "spring.data.redis.timeout=5s",
				"spring.data.redis.ssl.bundle=redis");

	@BeforeAll
	static void startRedisOverTls() throws IOException {
		certificates = TestCertificates.create(Files.createDirectory(directory.resolve("server")));
		redis = RedisProcess.startTls(certificates);
	}

	@AfterAll
	static void stopRedis() {
		redis.close();
	}

	@Test
	void storeRecordsAndReplaysOverTlsTrustingTheBundlesAuthority() {
		this.contextRunner.withPropertyValues("spring.data.redis.host=localhost",
				"spring.data.redis.port=" + redis.port(),
				"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + certificates.caCertificate())
			.run((context) -> {
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
			this.contextRunner.withPropertyValues("spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=" + misnamed.port(),
					"spring.ssl.bundle.pem.redis.truststore.certificate=file:" + elsewhere.caCertificate())
				.run((context) -> assertThatExceptionOfType(IdempotencyStoreException.class)
					.isThrownBy(() -> context.getBean(IdempotencyStore.class).begin("scope", "fp", "token", LONG))
					.withStackTraceContaining("No subject alternative names matching IP address 127.0.0.1"));
		}
	}

}
