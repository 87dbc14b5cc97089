package dev.modelgate.consumers.postgresql;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.consumers.support.ReplayScenario;
import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same application with the README's HikariCP settings for calls on the request thread
 * ("PostgreSQL on the request thread"): the store then reports the operation timeout as its call
 * time limit, so no call is handed to another thread, and the replay scenario holds on that path.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "spring.datasource.hikari.connection-timeout=250",
				"spring.datasource.hikari.validation-timeout=250" })
class PostgresqlOnlyBoundedPoolTests extends ReplayScenario {

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private IdempotencyStore store;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

	@Test
	void theStoreBoundsItsOwnCallsWithinTheOperationTimeout() {
		assertThat(this.store.callTimeLimit()).isEqualTo(Duration.ofSeconds(2));
	}

}
