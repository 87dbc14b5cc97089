/**
 * The WebFlux adapter: {@link dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter} for
 * {@code @Idempotent} handlers of reactive applications, and
 * {@link dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine}, which a Spring Cloud Gateway
 * route filter reuses. It only carries out what {@link dev.modelgate.idempotency.web.internal.HttpDecision}
 * decides, over the core's asynchronous coordinator; it never uses the servlet adapter.
 */
@NullMarked
package dev.modelgate.idempotency.web.reactive;

import org.jspecify.annotations.NullMarked;
