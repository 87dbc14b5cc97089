/**
 * The Spring Cloud Gateway adapter: the {@code Idempotency} route filter of the gateway's WebFlux
 * server, which runs a route's upstream call once per key and replays its recorded response or stream.
 */
@NullMarked
package dev.modelgate.idempotency.gateway;

import org.jspecify.annotations.NullMarked;
