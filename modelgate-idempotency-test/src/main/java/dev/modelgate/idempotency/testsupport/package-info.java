/**
 * Finds the Redis and PostgreSQL servers tests talk to: local ones from environment variables,
 * else Testcontainers where Docker runs.
 */
@NullMarked
package dev.modelgate.idempotency.testsupport;

import org.jspecify.annotations.NullMarked;
