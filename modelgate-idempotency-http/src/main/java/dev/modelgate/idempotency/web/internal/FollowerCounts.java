package dev.modelgate.idempotency.web.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.FollowerCounts;

/**
 * How many duplicates follow each live stream on this instance, against
 * {@link StreamSettings#maxFollowers()}: one client retrying a long stream in a loop, or many clients
 * sharing a key, cannot pile up followers without bound (each costs a connection, a store read every
 * poll interval and, on a stack that blocks, a thread). One per adapter instance; a scope with no
 * follower left takes no memory.
 */
public final class FollowerCounts {

	private final ConcurrentMap<String, Integer> following = new ConcurrentHashMap<>();

	/**
	 * Counts one more follower of the scope's stream, unless it has the most it may have.
	 * @param scope the stream's scope
	 * @param max the most followers it may have
	 * @return whether the follower may follow; if so, {@link #leave} must be called once it is done
	 */
	public boolean tryJoin(String scope, int max) {
		boolean[] joined = new boolean[1];
		this.following.compute(scope, (key, count) -> {
			int now = (count != null) ? count : 0;
			joined[0] = now < max;
			return joined[0] ? now + 1 : count;
		});
		return joined[0];
	}

	/**
	 * A follower that joined is done.
	 * @param scope the stream's scope
	 */
	public void leave(String scope) {
		this.following.computeIfPresent(scope, (key, count) -> (count > 1) ? count - 1 : null);
	}

	/**
	 * {@return how many follow the scope's stream now}
	 * @param scope the stream's scope
	 */
	public int count(String scope) {
		return this.following.getOrDefault(scope, 0);
	}

}
