package dev.modelgate.reliability;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.StoreServer;

/**
 * The store outage on Redis: a Redis of the suite's own that writes every change to its append-only
 * file before answering, so that the records acknowledged before a crash survive the restart (a
 * Redis without persistence forgets them all, README window 6).
 */
class RedisStoreOutageTests extends AbstractStoreOutageTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return RedisServer.startPersistent(scenario);
	}

	@Override
	protected String scenario() {
		return "store-outage-redis";
	}

	/**
	 * The sample app's Lettuce retries the connection at least every second; with Lettuce's default
	 * back-off (up to 30s) a 10s outage took 14s to recover from.
	 */
	@Override
	protected Duration recoveryLimit() {
		return Duration.ofSeconds(3);
	}

	private RedisServer redis() {
		return (RedisServer) store();
	}

	@Test
	void redisKilledAndRestartedUnderLoad() {
		// A dead server closes its connections: the gateway notices at once and refuses at once.
		runOutage("kill -9 and restart", Duration.ofSeconds(1), redis()::kill, redis()::restart);
	}

	@Test
	void redisFrozenAndResumedUnderLoad() {
		// A hung server answers nothing: each call waits for the operation timeout (2s), no longer.
		runOutage("SIGSTOP and SIGCONT", Duration.ofSeconds(3), redis()::freeze, redis()::thaw);
	}

}
