/**
 * {@code @IdempotentOperation}: AOP interceptor and SpEL keys for methods run through the template.
 */
@NullMarked
package dev.modelgate.idempotency.operation;

import org.jspecify.annotations.NullMarked;
