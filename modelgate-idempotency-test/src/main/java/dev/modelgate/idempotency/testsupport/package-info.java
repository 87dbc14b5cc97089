/**
 * Finds the Redis and PostgreSQL servers tests talk to: local ones from environment variables,
 * else Testcontainers where Docker runs; and starts a {@code redis-server} of a test's own where a
 * test needs one configured its way.
 */
@NullMarked
package dev.modelgate.idempotency.testsupport;

import org.jspecify.annotations.NullMarked;
