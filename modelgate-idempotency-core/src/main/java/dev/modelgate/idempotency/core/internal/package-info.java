/**
 * The machinery the library's own adapters share, not an API: request fingerprints and canonical
 * bodies, leases and their heartbeats, settlement of a handler's result, decision reporting, buffer
 * helpers, time-bounded and blocking-to-asynchronous store adapters. Public only because the web,
 * store and Spring modules of this library call it from their own packages; anything here may change
 * in any release. Applications use {@code dev.modelgate.idempotency.core} and the annotations.
 */
@NullMarked
package dev.modelgate.idempotency.core.internal;

import org.jspecify.annotations.NullMarked;
