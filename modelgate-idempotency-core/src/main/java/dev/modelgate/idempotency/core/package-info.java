/**
 * The Idempotency-Key state machine with no Spring, servlet, store client or Jackson in it: key,
 * scope, fingerprint, the store SPI, leases and heartbeats, the coordinator, the template, decisions
 * and listeners, and a bounded in-memory store.
 */
@NullMarked
package dev.modelgate.idempotency.core;

import org.jspecify.annotations.NullMarked;
