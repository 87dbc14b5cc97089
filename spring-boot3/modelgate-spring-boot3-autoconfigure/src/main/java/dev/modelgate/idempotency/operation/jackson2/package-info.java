/**
 * {@code @IdempotentOperation} results and fingerprints as JSON with Jackson 2, the Spring Boot 3.5
 * line's JSON library; {@link dev.modelgate.idempotency.operation.jackson2.JsonResultCodec} for
 * {@code IdempotencyTemplate} calls.
 */
@NullMarked
package dev.modelgate.idempotency.operation.jackson2;

import org.jspecify.annotations.NullMarked;
