/**
 * What the Actuator support does without Spring Boot: the store probe and details behind the
 * {@code idempotency} health, and the record look-ups and deletions behind the {@code idempotency}
 * endpoint.
 */
@NullMarked
package dev.modelgate.idempotency.actuate;

import org.jspecify.annotations.NullMarked;
