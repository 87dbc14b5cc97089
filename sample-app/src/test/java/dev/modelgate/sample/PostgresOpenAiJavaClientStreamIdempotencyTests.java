package dev.modelgate.sample;

import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link OpenAiJavaClientStreamIdempotencyTests} with the postgres profile, on the real PostgreSQL
 * server (PGHOST/PGPORT/PGDATABASE/PGUSER, default 127.0.0.1:5432/test/postgres): the events are
 * recorded in the JDBC store's tables.
 */
@ActiveProfiles("postgres")
@TestPropertySource(properties = PostgresOpenAiJavaClientStreamIdempotencyTests.TABLE)
class PostgresOpenAiJavaClientStreamIdempotencyTests extends OpenAiJavaClientStreamIdempotencyTests {

	static final String TABLE = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_test";

	@Test
	void concurrentDuplicateOnASecondInstanceAttaches() throws Exception {
		try (ConfigurableApplicationContext second = startSecondInstance("postgres", TABLE)) {
			assertDuplicateOnTheSecondInstanceAttaches(second);
		}
	}

}
