package dev.modelgate.consumers.outbox;

import dev.modelgate.idempotency.outbox.IdempotentEvent;

/** Published by a signup, in its transaction; its key is derived from the signup's idempotency key. */
public record WelcomeMailRequested(String idempotencyKey, String email) implements IdempotentEvent {
}
