package dev.modelgate.idempotency.web.servlet;

import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.MariaDbDataSource;

/** The status resource's HTTP suite with MariaDB as the store, its table created at start-up from the MariaDB script. */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_http_test",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@Import(MariaDbDataSource.class)
class MariaDbStoreStatusResourceHttpTests extends AbstractStatusResourceHttpTests {

}
