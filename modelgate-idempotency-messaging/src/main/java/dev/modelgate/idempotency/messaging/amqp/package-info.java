/**
 * {@code @IdempotentListener} on Spring AMQP: the message a listener handles, and refusals turned into
 * a delayed requeue or a dead letter.
 */
@NullMarked
package dev.modelgate.idempotency.messaging.amqp;

import org.jspecify.annotations.NullMarked;
