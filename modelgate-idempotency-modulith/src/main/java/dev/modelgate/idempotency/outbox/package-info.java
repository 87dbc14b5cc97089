/**
 * The transactional outbox on Spring Modulith's event publication registry: events that carry a key
 * derived from the keyed request or operation that published them ({@link EventKeys}), and listeners
 * that run their side effect at most once per such key ({@link IdempotentEventListener}), however
 * often the registry resubmits the publication.
 */
@NullMarked
package dev.modelgate.idempotency.outbox;

import org.jspecify.annotations.NullMarked;
