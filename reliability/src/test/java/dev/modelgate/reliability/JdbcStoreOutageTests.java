package dev.modelgate.reliability;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/**
 * The store outage on PostgreSQL (the JDBC store, with the sample app's credit ledger on the same
 * database): an immediate shutdown and a restart with crash recovery, and a freeze of every server
 * process.
 */
class JdbcStoreOutageTests extends AbstractStoreOutageTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "store-outage-postgresql";
	}

	private PostgresServer postgres() {
		return (PostgresServer) store();
	}

	@Test
	void postgresCrashedAndRestartedUnderLoad() {
		runOutage("immediate shutdown and restart", Duration.ofSeconds(1), postgres()::crash, postgres()::restart);
	}

	@Test
	void postgresFrozenAndResumedUnderLoad() {
		runOutage("SIGSTOP and SIGCONT", Duration.ofSeconds(3), postgres()::freeze, postgres()::thaw);
	}

}
