/**
 * The servers tests talk to: the shared Redis and PostgreSQL servers (local ones from environment
 * variables, else Testcontainers where Docker runs), and throw-away {@code redis-server} processes
 * of a test's own, configured its way (an eviction policy, ACL users, TLS, a one-node cluster, a
 * replica): {@link dev.modelgate.idempotency.testsupport.RedisProcess}.
 */
@NullMarked
package dev.modelgate.idempotency.testsupport;

import org.jspecify.annotations.NullMarked;
