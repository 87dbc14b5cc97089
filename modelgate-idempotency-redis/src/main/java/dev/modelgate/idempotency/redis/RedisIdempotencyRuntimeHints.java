package dev.modelgate.idempotency.redis;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Keeps the Lua scripts in a native image: {@link RedisIdempotencyStore} reads them from the class path
 * once, at construction.
 */
class RedisIdempotencyRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(RedisIdempotencyStore.SCRIPT_LOCATION + "*.lua");
	}

}
