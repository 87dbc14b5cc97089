/**
 * The read-only (unless given more access) {@code idempotency} Actuator endpoint.
 */
@NullMarked
package dev.modelgate.idempotency.actuate.endpoint;

import org.jspecify.annotations.NullMarked;
