/**
 * {@code @IdempotentOperation} results and fingerprints as JSON with Jackson 3, the Spring Boot 4
 * line's JSON library; {@link dev.modelgate.idempotency.operation.jackson.JsonResultCodec} for
 * {@code IdempotencyTemplate} calls.
 */
@NullMarked
package dev.modelgate.idempotency.operation.jackson;

import org.jspecify.annotations.NullMarked;
