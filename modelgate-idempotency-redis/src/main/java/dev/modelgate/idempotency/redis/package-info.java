/**
 * The Redis store: one Lua script per transition, one key per record, so it works on Redis Cluster.
 */
@NullMarked
package dev.modelgate.idempotency.redis;

import org.jspecify.annotations.NullMarked;
