package dev.modelgate.idempotency.micrometer;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.common.KeyValues;

/**
 * Store observations named {@value #NAME} (so the timer is {@code modelgate.idempotency.store} and a
 * span is called {@code idempotency <operation>}), with the low-cardinality key values
 * {@code operation}, {@code store} and (once the call returned) {@code result}, and the scope hash as
 * the high-cardinality {@code modelgate.idempotency.scope} (on spans only, never on metrics).
 */
public class DefaultIdempotencyStoreObservationConvention implements IdempotencyStoreObservationConvention {

	/** Name of the observation, and so of its timer. */
	public static final String NAME = "modelgate.idempotency.store";

	/** Without a result yet, in {@link #lowCardinality}. */
	private static final String NO_RESULT = "";

	/**
	 * The key values already built, by store type, operation and result (a few dozen in all): every
	 * store call asks for them twice, and sorting new ones each time was a tenth of its observation.
	 */
	private final Map<String, Map<String, Map<String, KeyValues>>> lowCardinality = new ConcurrentHashMap<>();

	private final Map<String, String> contextualNames = new ConcurrentHashMap<>();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(IdempotencyStoreObservationContext context) {
		return this.contextualNames.computeIfAbsent(context.getOperation(), (operation) -> "idempotency " + operation);
	}

	/**
	 * The result is only known once the call returns: the long task timer of running calls, tagged
	 * when they start, goes without it.
	 */
	@Override
	public KeyValues getLowCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		String result = (context.getResult() != null) ? context.getResult() : NO_RESULT;
		Map<String, KeyValues> byResult = this.lowCardinality
			.computeIfAbsent(context.getStoreType(), (storeType) -> new ConcurrentHashMap<>())
			.computeIfAbsent(context.getOperation(), (operation) -> new ConcurrentHashMap<>());
		KeyValues keyValues = byResult.get(result);
		if (keyValues == null) {
			KeyValues started = KeyValues.of("operation", context.getOperation(), "store", context.getStoreType());
			keyValues = byResult.computeIfAbsent(result,
					(key) -> key.isEmpty() ? started : started.and("result", key));
		}
		return keyValues;
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(IdempotencyStoreObservationContext context) {
		return KeyValues.of("modelgate.idempotency.scope", context.getScope());
	}

}
