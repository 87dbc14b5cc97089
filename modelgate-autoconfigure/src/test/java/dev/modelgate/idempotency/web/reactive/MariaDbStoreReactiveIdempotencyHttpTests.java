package dev.modelgate.idempotency.web.reactive;

import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.idempotency.testsupport.MariaDbDataSource;

/** MariaDB through JDBC on the adapter's bounded pool: the reactive HTTP suite with MariaDB as the store. */
@TestPropertySource(properties = { "modelgate.idempotency.store=jdbc",
		"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_webflux_test",
		"modelgate.idempotency.jdbc.initialize-schema=always",
		"spring.autoconfigure.exclude=org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@Import(MariaDbDataSource.class)
class MariaDbStoreReactiveIdempotencyHttpTests extends AbstractReactiveIdempotencyHttpTests {

}
