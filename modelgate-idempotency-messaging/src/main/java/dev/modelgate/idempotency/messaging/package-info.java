/**
 * {@code @IdempotentListener}: message listeners run through the {@code @IdempotentOperation}
 * interceptor, with key, scope and fingerprint read from the message being handled.
 */
@NullMarked
package dev.modelgate.idempotency.messaging;

import org.jspecify.annotations.NullMarked;
