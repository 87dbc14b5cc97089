/**
 * Micrometer metrics and observations of decisions and store calls.
 */
@NullMarked
package dev.modelgate.idempotency.micrometer;

import org.jspecify.annotations.NullMarked;
