package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/** {@code kill -9} at each window, the gateways on one Redis. */
class RedisProcessKillTests extends AbstractProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "process-kill-redis";
	}

}
