/**
 * The Idempotency-Key state machine with no Spring, servlet, store client or Jackson in it: key,
 * scope, the store SPI, the coordinator, the template, decisions and listeners, derived keys, the
 * exceptions a caller handles, and a bounded in-memory store. What the library's adapters share
 * beside it (fingerprints, leases, settlement, reporting, buffers) is in {@code .internal}, not API.
 */
@NullMarked
package dev.modelgate.idempotency.core;

import org.jspecify.annotations.NullMarked;
