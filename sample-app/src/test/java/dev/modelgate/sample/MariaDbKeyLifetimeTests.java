package dev.modelgate.sample;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link KeyLifetimeTests} with the mariadb profile, on the MariaDB server at MARIADB_HOST:MARIADB_PORT
 * (default 127.0.0.1:3306).
 */
@ActiveProfiles("mariadb")
@TestPropertySource(properties = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_lifetime")
class MariaDbKeyLifetimeTests extends KeyLifetimeTests {

}
