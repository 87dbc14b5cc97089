package dev.modelgate.idempotency.web;

import java.util.List;
import java.util.Set;

/**
 * The default split: responses are recorded, except server errors (unless asked for) and the
 * statuses that say "try again": 408, 409, 425 and 429 by default. A listed status is released
 * whatever its class, so that server errors can be recorded except for some (503, say).
 */
public class StatusResponsePolicy implements ResponsePolicy {

	/** The statuses that say "try again" and so release the key by default: 408, 409, 425 and 429. */
	public static final List<Integer> DEFAULT_RELEASE_STATUSES = List.of(408, 409, 425, 429);

	private final Set<Integer> releaseStatuses;

	private final boolean recordServerErrors;

	/**
	 * A policy that records every response except the listed statuses and, unless
	 * {@code recordServerErrors}, server errors.
	 * @param releaseStatuses statuses that release the key; a listed 5xx is released even when server
	 * errors are recorded
	 * @param recordServerErrors whether 5xx responses are recorded instead of released
	 */
	public StatusResponsePolicy(Set<Integer> releaseStatuses, boolean recordServerErrors) {
		this.releaseStatuses = Set.copyOf(releaseStatuses);
		this.recordServerErrors = recordServerErrors;
	}

	@Override
	public boolean shouldRecord(int status) {
		if (this.releaseStatuses.contains(status)) {
			return false;
		}
		return status < 500 || this.recordServerErrors;
	}

}
