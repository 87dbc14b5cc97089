package dev.modelgate.sample;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link KeyLifetimeTests} with the postgres profile, on the PostgreSQL server at PGHOST:PGPORT
 * (default 127.0.0.1:5432).
 */
@ActiveProfiles("postgres")
@TestPropertySource(properties = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_lifetime")
class PostgresKeyLifetimeTests extends KeyLifetimeTests {

}
