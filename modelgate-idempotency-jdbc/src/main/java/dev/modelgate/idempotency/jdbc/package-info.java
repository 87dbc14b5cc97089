/**
 * The PostgreSQL store on Spring JDBC, its schema and its transactional completion.
 */
@NullMarked
package dev.modelgate.idempotency.jdbc;

import org.jspecify.annotations.NullMarked;
