package dev.modelgate.idempotency.docs;

import javax.sql.DataSource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.testsupport.PostgresTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/TESTING.md, "Resetting state between tests" on a JDBC store: deleting the rows of the records
 * table and its events table, on a real PostgreSQL.
 */
@Tag("store")
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=jdbc", "modelgate.idempotency.jdbc.initialize-schema=always",
				"modelgate.idempotency.jdbc.table-name=guide_idempotency" })
@Import(JdbcResetTestingGuideTests.Postgres.class)
class JdbcResetTestingGuideTests {

	@Autowired
	private JdbcTemplate jdbc;

	@LocalServerPort
	private int port;

	@AfterEach
	void forgetEveryKey() {
		this.jdbc.update("DELETE FROM guide_idempotency_events");
		this.jdbc.update("DELETE FROM guide_idempotency");
	}

	@Test
	void aKeyUsedByAnEarlierTestRunsAgainAfterItsRowsAreDeleted() throws Exception {
		GuideClient client = new GuideClient(this.port);
		assertThat(client.post("order-6").headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(client.post("order-6").headers().firstValue("Idempotent-Replayed")).hasValue("true");

		forgetEveryKey();

		assertThat(client.post("order-6").headers().firstValue("Idempotent-Replayed")).isEmpty();
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class Postgres {

		@Bean
		DataSource dataSource() {
			return PostgresTestServer.dataSource();
		}

	}

}
