package dev.modelgate.idempotency.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.modelgate.idempotency.boot4.autoconfigure.SpringBoot4LineVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * The Spring Boot 4 line's auto-configuration checks the Spring Boot version of every application it starts in
 * (the check itself, shared with the Spring Boot 3 line, is tested there).
 */
class SpringBoot4LineVerifierTests {

	@Test
	void verifierAndAnalyzerAreRegisteredForEverySpringApplication() {
		SpringFactoriesLoader factories = SpringFactoriesLoader.forDefaultResourceLocation();
		// Other jars' analyzers need constructor arguments this test does not give: skip them.
		SpringFactoriesLoader.FailureHandler skip = (type, name, failure) -> {
		};
		assertThat(factories.load(ApplicationContextInitializer.class, skip))
			.hasAtLeastOneElementOfType(SpringBoot4LineVerifier.class);
		assertThat(factories.load(FailureAnalyzer.class, skip))
			.hasAtLeastOneElementOfType(WrongSpringBootLineFailureAnalyzer.class);
	}

	@Test
	void passesOnTheSpringBootItRunsOn() {
		assertThatNoException()
			.isThrownBy(() -> new SpringBoot4LineVerifier().initialize(new GenericApplicationContext()));
	}

}
