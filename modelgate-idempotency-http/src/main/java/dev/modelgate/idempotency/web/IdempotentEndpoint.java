package dev.modelgate.idempotency.web;

import java.time.Duration;
import java.util.List;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.JsonPointer;

/**
 * The settings of one {@code @Idempotent} handler, with the annotation's overrides applied to the
 * global defaults, resolved once at start-up.
 *
 * @param route the route pattern the request matched
 * @param scopeName the name of the key space (the route, unless the annotation names one)
 * @param required whether a request without a key is refused
 * @param ttl how long a completed response is kept
 * @param leaseTtl how long a lease lasts between heartbeats
 * @param waitTimeout how long a duplicate waits for the first request; zero rejects at once
 * @param ignoreFields JSON Pointers left out of the fingerprint
 * @param onStoreFailure what to do when the store cannot be reached
 * @param attachToStream whether a duplicate attaches to a stream still being recorded
 * @param spentKeyRetention how long the key stays spent after its response expired; zero for not at all
 * @param spentKeyResourceHeader the response header whose value the spent key keeps as its resource
 * reference (empty for none)
 */
public record IdempotentEndpoint(String route, String scopeName, boolean required, Duration ttl,
		Duration leaseTtl, Duration waitTimeout, List<JsonPointer> ignoreFields,
		Idempotent.StoreFailure onStoreFailure, boolean attachToStream, Duration spentKeyRetention,
		String spentKeyResourceHeader) {

	/**
	 * An endpoint whose keys are free once their response expires.
	 * @param route the route pattern the request matched
	 * @param scopeName the name of the key space (the route, unless the annotation names one)
	 * @param required whether a request without a key is refused
	 * @param ttl how long a completed response is kept
	 * @param leaseTtl how long a lease lasts between heartbeats
	 * @param waitTimeout how long a duplicate waits for the first request; zero rejects at once
	 * @param ignoreFields JSON Pointers left out of the fingerprint
	 * @param onStoreFailure what to do when the store cannot be reached
	 * @param attachToStream whether a duplicate attaches to a stream still being recorded
	 */
	public IdempotentEndpoint(String route, String scopeName, boolean required, Duration ttl, Duration leaseTtl,
			Duration waitTimeout, List<JsonPointer> ignoreFields, Idempotent.StoreFailure onStoreFailure,
			boolean attachToStream) {
		this(route, scopeName, required, ttl, leaseTtl, waitTimeout, ignoreFields, onStoreFailure, attachToStream,
				Duration.ZERO, "");
	}

	/**
	 * The same endpoint under another route, whose scope it takes unless it names its own.
	 * @param route the route pattern
	 * @return the endpoint
	 */
	public IdempotentEndpoint withRoute(String route) {
		String scope = this.scopeName.isEmpty() ? route : this.scopeName;
		return new IdempotentEndpoint(route, scope, this.required, this.ttl, this.leaseTtl, this.waitTimeout,
				this.ignoreFields, this.onStoreFailure, this.attachToStream, this.spentKeyRetention,
				this.spentKeyResourceHeader);
	}

}
