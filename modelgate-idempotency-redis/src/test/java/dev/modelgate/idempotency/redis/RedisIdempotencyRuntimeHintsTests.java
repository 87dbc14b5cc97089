package dev.modelgate.idempotency.redis;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** Every script the store loads is kept in a native image, and Spring's AOT processing finds the hints. */
class RedisIdempotencyRuntimeHintsTests {

	@Test
	void everyScriptIsRegisteredAsAResource() {
		RuntimeHints hints = new RuntimeHints();
		new RedisIdempotencyRuntimeHints().registerHints(hints, getClass().getClassLoader());
		for (String script : new String[] { "begin", "renew", "complete", "release", "find", "stream_open",
				"stream_append", "stream_complete", "stream_read" }) {
			assertThat(RuntimeHintsPredicates.resource()
				.forResource(RedisRecords.SCRIPT_LOCATION + script + ".lua")).accepts(hints);
		}
	}

	@Test
	void registrarIsListedForAotProcessing() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(RedisIdempotencyRuntimeHints.class);
	}

}
