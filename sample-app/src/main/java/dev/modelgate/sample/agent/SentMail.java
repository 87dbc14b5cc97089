package dev.modelgate.sample.agent;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A mail the outbox accepted.
 *
 * @param messageId the outbox's id for it
 * @param idempotencyKey the key the sender passed: the tool-level key of the agent step when the tool
 * delivers directly, the mail event's derived key when it goes through the outbox and the queue
 * @param message what was sent
 */
public record SentMail(@JsonProperty("message_id") String messageId,
		@JsonProperty("idempotency_key") String idempotencyKey, MailMessage message) {
}
