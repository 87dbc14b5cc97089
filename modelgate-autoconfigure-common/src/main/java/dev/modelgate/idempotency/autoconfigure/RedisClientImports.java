package dev.modelgate.idempotency.autoconfigure;

/**
 * How the Redis store wants the auto-configured Lettuce client to behave during an outage
 * ({@code modelgate.idempotency.redis.fail-fast}), from the Spring Boot line's module (the
 * customizers' package differs between the lines), which lists its configuration in
 * {@code META-INF/spring/dev.modelgate.idempotency.autoconfigure.RedisClientImports.imports}.
 */
final class RedisClientImports extends LineImports {

}
