package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/** The duplicate storm on one Redis shared by the gateways. */
class RedisDuplicateStormTests extends AbstractDuplicateStormTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "duplicate-storm-redis";
	}

}
