package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/** A lease that runs out during a stop-the-world pause, the gateways on one Redis. */
class RedisLeaseExpiryTests extends AbstractLeaseExpiryTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "lease-expiry-redis";
	}

}
