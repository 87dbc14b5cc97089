package dev.modelgate.reliability;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease that runs out during a stop-the-world pause, the gateways on one Redis: the paused
 * holder's {@code complete} is refused, and its client still gets its real response.
 */
class RedisLeaseExpiryTests extends AbstractLeaseExpiryTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "lease-expiry-redis";
	}

	@Override
	protected String refusal() {
		return "its `complete` refused";
	}

	@Override
	protected String refusalLogLine() {
		return "was lost before completion";
	}

	@Override
	protected void assertStaleHolder(Answer staleHolder, Answer newHolder, SampleApp staleGateway) {
		assertThat(staleHolder.status()).as("the paused holder's client still gets its real response").isEqualTo(200);
		assertThat(staleHolder.isReplay()).isFalse();
		assertThat(staleHolder.sameBody(newHolder)).isFalse();
	}

}
