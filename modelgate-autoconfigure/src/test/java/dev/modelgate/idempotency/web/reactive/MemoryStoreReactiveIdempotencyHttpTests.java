package dev.modelgate.idempotency.web.reactive;

import org.springframework.test.context.TestPropertySource;

@TestPropertySource(properties = { "modelgate.idempotency.store=memory",
		"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class MemoryStoreReactiveIdempotencyHttpTests extends AbstractReactiveIdempotencyHttpTests {

}
