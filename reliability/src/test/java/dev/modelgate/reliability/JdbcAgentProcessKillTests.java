package dev.modelgate.reliability;

import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

/** {@code kill -9} in the middle of an agent run, the gateways on one PostgreSQL (the JDBC store). */
class JdbcAgentProcessKillTests extends AbstractAgentProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "agent-process-kill-jdbc";
	}

}
