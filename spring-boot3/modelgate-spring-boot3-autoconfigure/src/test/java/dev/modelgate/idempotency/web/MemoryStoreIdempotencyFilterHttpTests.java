package dev.modelgate.idempotency.web;

import org.springframework.test.context.TestPropertySource;

/** The shared HTTP behaviour tests on Spring Boot 3.5, memory store (Boot 3's DataSource auto-configuration left out). */
@TestPropertySource(properties = { "modelgate.idempotency.store=memory",
		"spring.autoconfigure.exclude=org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration" })
class MemoryStoreIdempotencyFilterHttpTests extends AbstractIdempotencyFilterHttpTests {

}
