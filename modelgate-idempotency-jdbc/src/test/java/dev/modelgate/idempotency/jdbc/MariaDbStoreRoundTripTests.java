package dev.modelgate.idempotency.jdbc;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.core.BeginResult.Outcome;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.jdbc.CountingDataSource.Counts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a begin costs on MariaDB, where it cannot be one statement: a new key is one insert; a key
 * that exists adds a read, and an expired one the takeover; all on one connection checkout, each
 * statement its own transaction (no BEGIN/COMMIT round trips).
 */
@Tag("store")
class MariaDbStoreRoundTripTests {

	private static final String TABLE = "modelgate_idempotency_roundtrip_test";

	private static final Duration LONG = Duration.ofMinutes(5);

	private final CountingDataSource dataSource = new CountingDataSource(TestDatabase.MARIADB.dataSource());

	private final JdbcIdempotencyStore store = TestDatabase.MARIADB.store(new JdbcTemplate(this.dataSource), TABLE);

	private final String scope = UUID.randomUUID().toString().replace("-", "");

	@BeforeEach
	void createTable() {
		TestDatabase.MARIADB.createOnce(TABLE);
	}

	@Test
	void newKeyIsOneInsertOnOneConnection() {
		assertThat(this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG).outcome())
			.isEqualTo(Outcome.ACQUIRED);
		Counts counts = this.dataSource.take();
		assertThat(counts.statements()).singleElement().asString().contains("INSERT IGNORE");
		assertOneConnectionInAutocommit(counts);
	}

	@Test
	void replayIsTheInsertAndOneReadOnOneConnection() {
		String token = UUID.randomUUID().toString();
		this.store.begin(this.scope, "fp", token, LONG);
		StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, "ok".getBytes(StandardCharsets.UTF_8));
		this.store.complete(this.scope, token, outcome, LONG);
		this.dataSource.take();
		assertThat(this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG).stored()).isEqualTo(outcome);
		Counts counts = this.dataSource.take();
		assertThat(counts.statements()).hasSize(2);
		assertOneConnectionInAutocommit(counts);
	}

	@Test
	void takeOverOfAnExpiredRecordIsThreeStatementsOnOneConnection() {
		this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), Duration.ofMillis(100));
		DatabaseDeadlines.awaitExpired(TestDatabase.MARIADB, TABLE, this.scope);
		this.dataSource.take();
		assertThat(this.store.begin(this.scope, "fp", UUID.randomUUID().toString(), LONG).outcome())
			.isEqualTo(Outcome.ACQUIRED);
		Counts counts = this.dataSource.take();
		assertThat(counts.statements()).hasSize(3);
		assertThat(counts.statements().get(2)).startsWith("UPDATE");
		assertOneConnectionInAutocommit(counts);
	}

	private static void assertOneConnectionInAutocommit(Counts counts) {
		assertThat(counts.connections()).as("connection checkouts").isEqualTo(1);
		assertThat(counts.transactionCalls()).as("transaction round trips").isZero();
	}

}
