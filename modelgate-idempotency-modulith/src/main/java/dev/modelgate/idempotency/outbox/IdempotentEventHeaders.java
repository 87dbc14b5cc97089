package dev.modelgate.idempotency.outbox;

import java.util.Map;

/**
 * The headers that carry an event's key when Spring Modulith externalizes it (to Kafka, RabbitMQ),
 * so that an {@code @IdempotentListener} on the other side runs once per key with no configuration:
 *
 * <pre class="code">
 * &#64;Bean
 * EventExternalizationConfiguration externalization() {
 *     return EventExternalizationConfiguration.externalizing()
 *         .select(EventExternalizationConfiguration.annotatedAsExternalized())
 *         .headers(IdempotentEvent.class, IdempotentEventHeaders::of)
 *         .build();
 * }
 * </pre>
 */
public final class IdempotentEventHeaders {

	/** The header {@code @IdempotentListener} reads its key from unless told otherwise. */
	public static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	private IdempotentEventHeaders() {
	}

	/**
	 * @param event an event with a derived key
	 * @return {@value #IDEMPOTENCY_KEY} with the event's key
	 */
	public static Map<String, Object> of(IdempotentEvent event) {
		return Map.of(IDEMPOTENCY_KEY, event.idempotencyKey());
	}

}
