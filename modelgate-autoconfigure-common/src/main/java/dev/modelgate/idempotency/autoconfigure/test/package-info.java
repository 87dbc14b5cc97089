/**
 * Support for test slices: what makes {@code @WebMvcTest} give {@code @Idempotent} controllers the
 * filter and, unless the test configures a store, the in-memory one.
 */
@NullMarked
package dev.modelgate.idempotency.autoconfigure.test;

import org.jspecify.annotations.NullMarked;
