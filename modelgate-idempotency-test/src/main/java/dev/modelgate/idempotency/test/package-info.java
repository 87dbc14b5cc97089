/**
 * Contract test suites that every {@link dev.modelgate.idempotency.core.IdempotencyStore} must
 * pass; extend them to test a store of your own.
 */
@NullMarked
package dev.modelgate.idempotency.test;

import org.jspecify.annotations.NullMarked;
