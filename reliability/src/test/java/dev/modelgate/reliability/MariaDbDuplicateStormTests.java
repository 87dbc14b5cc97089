package dev.modelgate.reliability;

import dev.modelgate.reliability.support.MariaDbDatabase;
import dev.modelgate.reliability.support.StoreServer;

/** The duplicate storm on one MariaDB database (the JDBC store, MariaDB statements) shared by the gateways. */
class MariaDbDuplicateStormTests extends JdbcDuplicateStormTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return MariaDbDatabase.start(scenario);
	}

	@Override
	protected String scenario() {
		return "duplicate-storm-mariadb";
	}

}
