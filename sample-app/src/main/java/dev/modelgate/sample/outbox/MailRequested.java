package dev.modelgate.sample.outbox;

import org.springframework.modulith.events.Externalized;

import dev.modelgate.idempotency.outbox.IdempotentEvent;
import dev.modelgate.sample.agent.MailMessage;

/**
 * The mail tool's request for a mail, published in the tool's transaction and stored by Spring
 * Modulith's event publication registry; externalized to the mail exchange after the commit, with
 * {@code Idempotency-Key} = {@link #idempotencyKey()}.
 *
 * @param idempotencyKey derived from the tool call's scope ({@code EventKeys.derive("mail")}): the same
 * for every delivery of this event and every re-run of the tool call
 * @param message the mail
 */
@Externalized(MailQueueConfiguration.EXCHANGE + "::" + MailQueueConfiguration.ROUTING_KEY)
public record MailRequested(String idempotencyKey, MailMessage message) implements IdempotentEvent {
}
