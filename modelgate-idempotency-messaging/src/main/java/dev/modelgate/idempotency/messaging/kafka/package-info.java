/**
 * {@code @IdempotentListener} on Spring Kafka: the record a listener handles, and refusals classified
 * for the container's {@code DefaultErrorHandler}.
 */
@NullMarked
package dev.modelgate.idempotency.messaging.kafka;

import org.jspecify.annotations.NullMarked;
