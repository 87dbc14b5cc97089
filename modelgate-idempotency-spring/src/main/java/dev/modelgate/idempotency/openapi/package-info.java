/**
 * springdoc customizer that documents the Idempotency-Key header and the problem responses.
 */
@NullMarked
package dev.modelgate.idempotency.openapi;

import org.jspecify.annotations.NullMarked;
