package dev.modelgate.consumers.postgresql;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.consumers.support.ReplayScenario;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with the starter, Spring MVC, Spring JDBC and the PostgreSQL driver (no Redis) starts,
 * that {@code store=auto} picks the JDBC store (the record is a row in the configured table), replays a retry with the
 * same key and body without running the handler again, and rejects the key with another body.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class PostgresqlOnlyReplayTests extends ReplayScenario {

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private JdbcTemplate jdbc;

	@Value("${modelgate.idempotency.jdbc.table-name}")
	private String table;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

	@Test
	void completedResponseIsRecordedAsARowOfTheConfiguredTable() throws Exception {
		HttpResponse<byte[]> first = post(UUID.randomUUID().toString(), ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);

		// The body holds a fresh id, so the row with a column that holds these bytes is this request's record
		// (whichever column: the table's layout is the store's business). The table is this application's alone.
		List<Object> states = this.jdbc.queryForList("SELECT * FROM " + this.table)
			.stream()
			.filter((row) -> row.values()
				.stream()
				.anyMatch((value) -> value instanceof byte[] bytes && contains(bytes, first.body())))
			.map((row) -> row.get("state"))
			.toList();
		assertThat(states).as("states of the rows of %s holding the response", this.table).containsExactly("completed");
	}

}
