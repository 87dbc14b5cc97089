package dev.modelgate.idempotency.web;

import javax.sql.DataSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** The shared HTTP behaviour tests on Spring Boot 3.5, PostgreSQL store (Boot 3's Redis auto-configuration left out). */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_boot3_http_test",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@Import(JdbcStoreIdempotencyFilterHttpTests.PostgresDataSource.class)
class JdbcStoreIdempotencyFilterHttpTests extends AbstractIdempotencyFilterHttpTests {

	@TestConfiguration(proxyBeanMethods = false)
	static class PostgresDataSource {

		@Bean
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

	}

}
