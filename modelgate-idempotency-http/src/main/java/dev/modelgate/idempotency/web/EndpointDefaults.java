package dev.modelgate.idempotency.web;

import java.time.Duration;

import dev.modelgate.idempotency.Idempotent;

/**
 * The global values an endpoint's settings fall back to (an annotation's attributes, a configured
 * route's or a gateway route's settings): the {@code modelgate.idempotency.*} properties of the same
 * names.
 *
 * @param ttl how long completed responses are kept
 * @param leaseTtl how long a lease lasts between heartbeats
 * @param waitTimeout how long a duplicate waits when its endpoint waits
 * @param inProgress what a duplicate gets on endpoints that leave {@code inProgress} to the default:
 * {@code REJECT} or {@code WAIT}
 * @param spentKeyRetention how long a key stays spent after its response expired; zero for not at all
 */
public record EndpointDefaults(Duration ttl, Duration leaseTtl, Duration waitTimeout, Idempotent.InProgress inProgress,
		Duration spentKeyRetention) {

	/**
	 * Defaults without spent keys.
	 * @param ttl how long completed responses are kept
	 * @param leaseTtl how long a lease lasts between heartbeats
	 * @param waitTimeout how long a duplicate waits when its endpoint waits
	 * @param inProgress what a duplicate gets on endpoints that leave {@code inProgress} to the default
	 */
	public EndpointDefaults(Duration ttl, Duration leaseTtl, Duration waitTimeout, Idempotent.InProgress inProgress) {
		this(ttl, leaseTtl, waitTimeout, inProgress, Duration.ZERO);
	}

	/**
	 * @throws IllegalArgumentException when {@code inProgress} is {@code DEFAULT}
	 */
	public EndpointDefaults {
		if (inProgress == Idempotent.InProgress.DEFAULT) {
			throw new IllegalArgumentException("The global inProgress must be REJECT or WAIT");
		}
	}

	/**
	 * Defaults under which a duplicate is rejected unless its endpoint says {@code WAIT}.
	 * @param ttl how long completed responses are kept
	 * @param leaseTtl how long a lease lasts between heartbeats
	 * @param waitTimeout how long a duplicate waits when its endpoint waits
	 */
	public EndpointDefaults(Duration ttl, Duration leaseTtl, Duration waitTimeout) {
		this(ttl, leaseTtl, waitTimeout, Idempotent.InProgress.REJECT);
	}

}
