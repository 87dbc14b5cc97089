package dev.modelgate.reliability;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/**
 * Keyed streams across gateways and a {@code kill -9} mid-stream, the gateways on one PostgreSQL
 * with the JDBC store (the sample app's {@code postgres} profile).
 */
class JdbcStreamTests extends AbstractStreamTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "streams-postgresql";
	}

}
