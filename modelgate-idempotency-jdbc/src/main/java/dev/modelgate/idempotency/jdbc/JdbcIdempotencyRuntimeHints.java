package dev.modelgate.idempotency.jdbc;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/** Keeps the schema scripts in a native image: {@link JdbcIdempotencySchema} reads it from the class path. */
class JdbcIdempotencyRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(JdbcIdempotencySchema.POSTGRESQL);
		hints.resources().registerPattern(JdbcIdempotencySchema.MARIADB);
	}

}
