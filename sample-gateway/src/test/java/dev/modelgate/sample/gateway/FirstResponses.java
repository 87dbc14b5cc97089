package dev.modelgate.sample.gateway;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelgate.idempotency.core.IdempotencyListener;

/**
 * Counts the responses of requests that ran (not replays): the engine reports one when the response
 * is done, or when its client went away, so that a test knows the gateway has seen a client leave.
 */
class FirstResponses implements IdempotencyListener {

	private static final AtomicInteger COUNT = new AtomicInteger();

	/** {@return how many responses of requests that ran ended since the last reset} */
	static int count() {
		return COUNT.get();
	}

	static void reset() {
		COUNT.set(0);
	}

	@Override
	public void onResponse(ResponseKind kind, String method, String route, Duration duration) {
		if (kind == ResponseKind.FIRST) {
			COUNT.incrementAndGet();
		}
	}

}
