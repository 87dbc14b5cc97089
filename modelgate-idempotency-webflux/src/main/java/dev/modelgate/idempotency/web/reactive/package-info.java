/**
 * The WebFlux adapter: {@link dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter} for
 * {@code @Idempotent} handlers of reactive applications, and
 * {@link dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine}, the non-blocking state machine over
 * an exchange that a Spring Cloud Gateway route filter reuses. The package is the one of the shared
 * HTTP pieces ({@code modelgate-idempotency-http}) and of the servlet filter, split across the jars.
 */
@NullMarked
package dev.modelgate.idempotency.web.reactive;

import org.jspecify.annotations.NullMarked;
