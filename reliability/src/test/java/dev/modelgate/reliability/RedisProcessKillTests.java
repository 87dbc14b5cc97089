package dev.modelgate.reliability;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} at each window, the gateways on one Redis. The credits live in each gateway's
 * memory here, so a committed charge is no different from any other effect outside the store.
 */
class RedisProcessKillTests extends AbstractProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "process-kill-redis";
	}

	@Override
	protected String afterChargePromise() {
		return "window 1 (no transaction on the store): 409 until the lease runs out, then runs again: 2 calls";
	}

	@Override
	protected void assertAfterCharge(Outcome outcome) {
		assertTakenOverAfterLease(outcome);
		assertThat(outcome.upstreamCalls()).isEqualTo(2);
	}

}
