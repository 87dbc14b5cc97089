/**
 * The Spring MVC adapter: the servlet filter for {@code @Idempotent} handlers, keyed body reading,
 * replay, problem responses and the HTTP encoding of recorded outcomes.
 */
@NullMarked
package dev.modelgate.idempotency.web.servlet;

import org.jspecify.annotations.NullMarked;
