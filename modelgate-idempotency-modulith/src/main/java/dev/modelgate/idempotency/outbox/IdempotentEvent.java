package dev.modelgate.idempotency.outbox;

/**
 * An event that carries the key of its side effect, derived when it is published from the keyed
 * request or operation that publishes it ({@link EventKeys#derive(String)}), so that every
 * delivery of it (the first, and each resubmission of its publication) has the same key.
 *
 * <pre class="code">
 * public record MailRequested(String idempotencyKey, String to, String subject) implements IdempotentEvent {
 * }
 *
 * events.publishEvent(new MailRequested(EventKeys.derive("welcome-mail"), to, subject));
 * </pre>
 *
 * <p>The key is a field of the event, so it is stored with it in the publication registry and survives
 * a restart; a listener annotated {@link IdempotentEventListener @IdempotentEventListener} reads it, and
 * an externalized event carries it as a header ({@link IdempotentEventHeaders}).
 */
public interface IdempotentEvent {

	/** {@return the key of this event's side effect: the same for every delivery of the event} */
	String idempotencyKey();

}
