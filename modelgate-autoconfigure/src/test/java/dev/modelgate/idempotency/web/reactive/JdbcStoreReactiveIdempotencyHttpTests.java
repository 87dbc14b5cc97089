package dev.modelgate.idempotency.web.reactive;

import javax.sql.DataSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.PostgresTestServer;

/** PostgreSQL through JDBC on the adapter's bounded pool: no event-loop thread waits for it. */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_webflux_test",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@Import(JdbcStoreReactiveIdempotencyHttpTests.PostgresDataSource.class)
class JdbcStoreReactiveIdempotencyHttpTests extends AbstractReactiveIdempotencyHttpTests {

	@TestConfiguration(proxyBeanMethods = false)
	static class PostgresDataSource {

		@Bean
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

	}

}
