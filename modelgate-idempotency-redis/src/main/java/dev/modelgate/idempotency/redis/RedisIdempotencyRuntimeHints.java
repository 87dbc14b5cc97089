package dev.modelgate.idempotency.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Keeps the Lua scripts in a native image: the Redis stores read them from the class path
 * once, at construction.
 */
class RedisIdempotencyRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(RedisRecords.SCRIPT_LOCATION + "*.lua");
	}

}
