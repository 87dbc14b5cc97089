package dev.modelgate.idempotency.core;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The operation ran under this key and completed; its result has expired, but the key is still
 * spent (see {@link SpentMarker}), so it does not run again. After the spent-key retention the key is
 * free and a call with it runs.
 */
public class IdempotencyKeySpentException extends RuntimeException {

	private final String scope;

	private final SpentKey spent;

	/**
	 * @param operation the operation's name, for the message
	 * @param scope the hashed scope
	 * @param spent what the store kept of the completed record
	 */
	public IdempotencyKeySpentException(String operation, String scope, SpentKey spent) {
		super("Operation '" + operation + "' already ran under this idempotency key (scope " + scope
				+ ") and completed at " + spent.completedAt() + " with status '" + spent.status()
				+ "'; its result has expired and it will not run again with this key");
		this.scope = scope;
		this.spent = spent;
	}

	/** {@return the hashed scope, as logs show it} */
	public String getScope() {
		return this.scope;
	}

	/** {@return the final status of the run: the outcome kind's code, such as {@code value}} */
	public String getStatus() {
		return this.spent.status();
	}

	/** {@return when the run completed, on the store's clock} */
	public Instant getCompletedAt() {
		return this.spent.completedAt();
	}

	/** {@return the resource reference kept with the key, or {@code null}} */
	public @Nullable String getResource() {
		return this.spent.resource();
	}

}
