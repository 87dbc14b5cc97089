package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/** {@code kill -9} in the middle of an agent run, the gateways on one Redis. */
class RedisAgentProcessKillTests extends AbstractAgentProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "agent-process-kill-redis";
	}

}
