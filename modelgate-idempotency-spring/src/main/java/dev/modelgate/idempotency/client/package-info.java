/**
 * Outgoing calls made while a keyed request, operation or listener runs: stable
 * {@code Idempotency-Key}s for the downstream APIs it calls.
 */
@NullMarked
package dev.modelgate.idempotency.client;

import org.jspecify.annotations.NullMarked;
