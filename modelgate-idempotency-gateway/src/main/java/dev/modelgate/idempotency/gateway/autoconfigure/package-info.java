/**
 * Auto-configuration of the {@code Idempotency} route filter, for Spring Boot 4 and 3.5 alike.
 */
@NullMarked
package dev.modelgate.idempotency.gateway.autoconfigure;

import org.jspecify.annotations.NullMarked;
