package dev.modelgate.idempotency.core.internal;

import java.time.Duration;

import dev.modelgate.idempotency.core.IdempotencyDecision;

/**
 * What the end of an attempt holds, whichever way it talks to its store ({@link BlockingSettlement} blocks,
 * {@link AsyncSettlement} does not): the held lease, the reports both send in the same words, and how
 * long a recorded outcome is kept.
 *
 * @param <L> the kind of lease
 */
public abstract sealed class Settlement<L> permits BlockingSettlement, AsyncSettlement {

	final L lease;

	private final String scope;

	final SettlementReports reports;

	final Duration ttl;

	/** What a recorded outcome leaves behind after {@code ttl}: nothing by default. */
	final SpentMarkers spentMarkers;

	/**
	 * @param lease the held lease
	 * @param scope the hashed scope it holds
	 * @param reporter where decisions go
	 * @param method as in {@link IdempotencyDecision#method()}
	 * @param route as in {@link IdempotencyDecision#route()}
	 * @param ttl how long a recorded outcome is kept
	 * @param spentMarkers what a recorded outcome leaves behind after {@code ttl}
	 */
	Settlement(L lease, String scope, DecisionReporter reporter, String method, String route, Duration ttl,
			SpentMarkers spentMarkers) {
		this.lease = lease;
		this.scope = scope;
		this.reports = new SettlementReports(reporter, method, route, scope);
		this.ttl = ttl;
		this.spentMarkers = spentMarkers;
	}

	/** {@return the hashed scope of the attempt} */
	public String scope() {
		return this.scope;
	}

	/** {@return the held lease, for writing a stream's events} */
	public L lease() {
		return this.lease;
	}

}
