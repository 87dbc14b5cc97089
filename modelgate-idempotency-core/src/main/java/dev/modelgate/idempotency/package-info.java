/**
 * The annotations users put on their code: {@link dev.modelgate.idempotency.Idempotent} for HTTP
 * endpoints and {@link dev.modelgate.idempotency.IdempotentOperation} for methods.
 */
@NullMarked
package dev.modelgate.idempotency;

import org.jspecify.annotations.NullMarked;
