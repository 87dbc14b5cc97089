package dev.modelgate.reliability;

import java.time.Duration;
import java.util.OptionalLong;

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

	/** Hikari retries a lost database with a back-off of up to 5s before the pool has connections again. */
	@Override
	protected Duration recoveryLimit() {
		return Duration.ofSeconds(10);
	}

	@Override
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.of(((PostgresServer) store).creditCharges());
	}

	private PostgresServer postgres() {
		return (PostgresServer) store();
	}

	@Test
	void postgresCrashedAndRestartedUnderLoad() {
		// A dead server refuses connections: Hikari gives up after its connection timeout (250 ms in the
		// postgres profile), and a statement on a connection the server dropped fails at once or after
		// the store's network timeout (500 ms), on the request thread.
		runOutage("immediate shutdown and restart", Duration.ofSeconds(3), postgres()::crash, postgres()::restart);
	}

	@Test
	void postgresFrozenAndResumedUnderLoad() {
		runOutage("SIGSTOP and SIGCONT", Duration.ofSeconds(3), postgres()::freeze, postgres()::thaw);
	}

}
