package dev.modelgate.consumers.postgresql;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same application with the README's HikariCP settings for calls on the request thread
 * ("PostgreSQL on the request thread"): the store then reports the operation timeout as its call
 * time limit, so no call is handed to another thread, and every replay test holds on that path.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.connection-timeout=250",
				"spring.datasource.hikari.validation-timeout=250" })
class PostgresqlOnlyBoundedPoolTests extends PostgresqlOnlyReplayTests {

	@Autowired
	private IdempotencyStore store;

	@Test
	void theStoreBoundsItsOwnCallsWithinTheOperationTimeout() {
		assertThat(this.store.callTimeLimit()).isEqualTo(Duration.ofSeconds(2));
	}

}
