package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/** Keyed streams across gateways and a {@code kill -9} mid-stream, the gateways on one Redis. */
class RedisStreamTests extends AbstractStreamTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "streams-redis";
	}

}
