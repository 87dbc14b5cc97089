package dev.modelgate.reliability;

import java.util.OptionalLong;

import dev.modelgate.reliability.support.MariaDbDatabase;
import dev.modelgate.reliability.support.StoreServer;

/**
 * {@code kill -9} at each window, the gateways on one MariaDB database with the JDBC store and the
 * credit ledger on it (the sample app's {@code mariadb} profile): the same promises as on PostgreSQL.
 */
class MariaDbProcessKillTests extends JdbcProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return MariaDbDatabase.start(scenario);
	}

	@Override
	protected String scenario() {
		return "process-kill-mariadb";
	}

	@Override
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.of(((MariaDbDatabase) store).creditCharges());
	}

}
