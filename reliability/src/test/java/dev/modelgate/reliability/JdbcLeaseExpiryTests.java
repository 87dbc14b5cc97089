package dev.modelgate.reliability;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/** A lease that runs out during a stop-the-world pause, the gateways on one PostgreSQL (the JDBC store). */
class JdbcLeaseExpiryTests extends AbstractLeaseExpiryTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "lease-expiry-postgresql";
	}

}
