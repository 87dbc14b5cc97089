package dev.modelgate.idempotency.autoconfigure;

/**
 * The servlet filter's {@code IdempotencyProblemRenderer}, from the Spring Boot line's module, which
 * lists its configuration in
 * {@code META-INF/spring/dev.modelgate.idempotency.autoconfigure.ProblemRendererImports.imports}.
 */
final class ProblemRendererImports extends LineImports {

}
