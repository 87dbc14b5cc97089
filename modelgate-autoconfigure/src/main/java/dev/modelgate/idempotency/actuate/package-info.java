/**
 * Actuator health indicator and the read-only {@code idempotency} endpoint.
 */
@NullMarked
package dev.modelgate.idempotency.actuate;

import org.jspecify.annotations.NullMarked;
