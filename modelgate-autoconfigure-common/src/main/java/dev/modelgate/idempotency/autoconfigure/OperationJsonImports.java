package dev.modelgate.idempotency.autoconfigure;

/**
 * The {@code OperationJson} of {@code @IdempotentOperation}, from the Spring Boot line's module, which
 * lists its configuration in
 * {@code META-INF/spring/dev.modelgate.idempotency.autoconfigure.OperationJsonImports.imports}.
 */
final class OperationJsonImports extends LineImports {

}
