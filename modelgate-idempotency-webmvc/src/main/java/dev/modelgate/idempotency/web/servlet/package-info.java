/**
 * The Spring MVC adapter: the servlet filter for {@code @Idempotent} handlers, keyed body reading,
 * replay, problem responses and recorded streams. It only carries out what
 * {@link dev.modelgate.idempotency.web.internal.HttpDecision} decides; it never uses the reactive adapter.
 */
@NullMarked
package dev.modelgate.idempotency.web.servlet;

import org.jspecify.annotations.NullMarked;
