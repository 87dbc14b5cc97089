package dev.modelgate.idempotency.jdbc;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/** The schema script is kept in a native image, and Spring's AOT processing finds the hints. */
class JdbcIdempotencyRuntimeHintsTests {

	@Test
	void schemaScriptIsRegisteredAsAResource() {
		RuntimeHints hints = new RuntimeHints();
		new JdbcIdempotencyRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.resource().forResource(JdbcIdempotencySchema.POSTGRESQL)).accepts(hints);
		assertThat(RuntimeHintsPredicates.resource().forResource(JdbcIdempotencySchema.MARIADB)).accepts(hints);
	}

	@Test
	void registrarIsListedForAotProcessing() {
		assertThat(SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)).hasAtLeastOneElementOfType(JdbcIdempotencyRuntimeHints.class);
	}

}
