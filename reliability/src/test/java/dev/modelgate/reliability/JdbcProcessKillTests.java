package dev.modelgate.reliability;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/** {@code kill -9} at each window, the gateways on one PostgreSQL (the JDBC store). */
class JdbcProcessKillTests extends AbstractProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "process-kill-postgresql";
	}

}
