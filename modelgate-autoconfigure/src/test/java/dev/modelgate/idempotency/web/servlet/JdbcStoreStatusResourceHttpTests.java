package dev.modelgate.idempotency.web.servlet;

import javax.sql.DataSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.PostgresTestServer;

@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_http_test",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@Import(JdbcStoreStatusResourceHttpTests.PostgresDataSource.class)
class JdbcStoreStatusResourceHttpTests extends AbstractStatusResourceHttpTests {

	@TestConfiguration(proxyBeanMethods = false)
	static class PostgresDataSource {

		@Bean
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

	}

}
