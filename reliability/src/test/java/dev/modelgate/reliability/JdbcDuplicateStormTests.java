package dev.modelgate.reliability;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/** The duplicate storm on one PostgreSQL (the JDBC store) shared by the gateways. */
class JdbcDuplicateStormTests extends AbstractDuplicateStormTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "duplicate-storm-postgresql";
	}

}
