package dev.modelgate.idempotency.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.SslVerifyMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.test.IdempotencyStoreContractTests;
import dev.modelgate.idempotency.testsupport.RedisProcess;
import dev.modelgate.idempotency.testsupport.TestCertificates;

import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.KEY_PREFIX;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.PASSWORD;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.STORE_RULES;
import static dev.modelgate.idempotency.redis.RedisAclIdempotencyStoreTests.STORE_USER;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The store contract over TLS only (the server has no plain port), as the README's restricted
 * user, with the server's certificate and host name verified by Lettuce; and a server the client
 * cannot verify is a store failure (so a 503), never a connection made anyway.
 */
@Tag("store")
class RedisTlsIdempotencyStoreTests extends IdempotencyStoreContractTests {

	@TempDir
	static Path directory;

	private static TestCertificates certificates;

	private static RedisProcess redis;

	private static LettuceConnectionFactory connectionFactory;

	@BeforeAll
	static void startRedisOverTls() throws IOException {
		certificates = TestCertificates.create(Files.createDirectory(directory.resolve("server")));
		redis = RedisProcess.startTls(certificates);
		RedisAclIdempotencyStoreTests.createUser(redis, STORE_USER, STORE_RULES);
		connectionFactory = connectOverTls("127.0.0.1", redis.port(), certificates.caCertificate());
	}

	@AfterAll
	static void stopRedis() {
		connectionFactory.destroy();
		redis.close();
	}

	@Override
	protected IdempotencyStore createStore() {
		return new RedisIdempotencyStore(connectionFactory, KEY_PREFIX);
	}

	@Test
	void hostNameInTheCertificateIsAcceptedToo() {
		LettuceConnectionFactory byName = connectOverTls("localhost", redis.port(), certificates.caCertificate());
		try {
			IdempotencyStore store = new RedisIdempotencyStore(byName, KEY_PREFIX);
			assertThat(store.begin(scopeHash(), "fp", token(), LONG).outcome()).isEqualTo(Outcome.ACQUIRED);
		}
		finally {
			byName.destroy();
		}
	}

	@Test
	void serverCertifiedByAnotherAuthorityIsAStoreFailure() throws IOException {
		TestCertificates stranger = TestCertificates.create(Files.createDirectory(directory.resolve("stranger")));
		assertBeginFails(connectOverTls("127.0.0.1", redis.port(), stranger.caCertificate()),
				"PKIX path");
	}

	@Test
	void serverCertifiedForAnotherHostIsAStoreFailure() throws IOException {
		TestCertificates elsewhere = TestCertificates.create(Files.createDirectory(directory.resolve("elsewhere")),
				"DNS:redis.elsewhere.invalid");
		try (RedisProcess misnamed = RedisProcess.startTls(elsewhere)) {
			assertBeginFails(connectOverTls("127.0.0.1", misnamed.port(), elsewhere.caCertificate()),
					"No subject alternative names matching IP address 127.0.0.1");
		}
	}

	private static void assertBeginFails(LettuceConnectionFactory factory, String handshakeFailure) {
		try {
			IdempotencyStore store = new RedisIdempotencyStore(factory, KEY_PREFIX);
			assertThatExceptionOfType(IdempotencyStoreException.class)
				.isThrownBy(() -> store.begin(scopeHash(), "fp", token(), LONG))
				.withCauseInstanceOf(DataAccessException.class)
				.withStackTraceContaining(handshakeFailure);
		}
		finally {
			factory.destroy();
		}
	}

	/** As a production client would: TLS, the server's certificate and host name checked, the store's user. */
	private static LettuceConnectionFactory connectOverTls(String host, int port, Path trustedAuthority) {
		RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(host, port);
		server.setUsername(STORE_USER);
		server.setPassword(RedisPassword.of(PASSWORD));
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.useSsl()
			.verifyPeer(SslVerifyMode.FULL)
			.and()
			.clientOptions(ClientOptions.builder()
				.sslOptions(SslOptions.builder().trustManager(trustedAuthority.toFile()).build())
				.build())
			.commandTimeout(Duration.ofSeconds(5))
			.shutdownTimeout(Duration.ZERO)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(server, client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

}
