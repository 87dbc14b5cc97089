/**
 * What the Spring Boot 3.5 line adds to the auto-configuration both lines share
 * ({@code dev.modelgate.idempotency.autoconfigure}): the health contributor on its health API, the
 * JSON beans on its Jackson, and the check that the application runs on Spring Boot 3.5.
 */
@NullMarked
package dev.modelgate.idempotency.boot3.autoconfigure;

import org.jspecify.annotations.NullMarked;
