package dev.modelgate.idempotency.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.modelgate.idempotency.autoconfigure.SpringBootLineVerifier.Line;
import dev.modelgate.idempotency.boot3.autoconfigure.SpringBoot3LineVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The Spring Boot 3 line's auto-configuration starts on Spring Boot 3.5 and later 3.x only, and on any
 * other version fails with a message that names the starter to use.
 */
class SpringBootLineVerifierTests {

	@ParameterizedTest
	@ValueSource(strings = { "3.5.0", "3.5.7", "3.5.8-SNAPSHOT", "3.6.0-M1" })
	void springBoot3LineStartsOnSpringBoot35AndLater3x(String version) {
		assertThatNoException().isThrownBy(() -> SpringBootLineVerifier.verify(Line.SPRING_BOOT_3, version));
	}

	@Test
	void unknownVersionIsLetThrough() {
		assertThatNoException().isThrownBy(() -> SpringBootLineVerifier.verify(Line.SPRING_BOOT_3, null));
		assertThatNoException().isThrownBy(() -> SpringBootLineVerifier.verify(Line.SPRING_BOOT_3, "unknown"));
	}

	@Test
	void onSpringBoot4TheSpringBoot4StarterIsNamed() {
		FailureAnalysis analysis = analyze(Line.SPRING_BOOT_3, "4.0.7");
		assertThat(analysis.getDescription()).contains("Spring Boot 4.0.7", "dev.modelgate:modelgate-spring-boot3-starter",
				"Spring Boot 3.5");
		assertThat(analysis.getAction()).startsWith(
				"Depend on dev.modelgate:modelgate-spring-boot-starter instead of dev.modelgate:modelgate-spring-boot3-starter");
	}

	@Test
	void onAnOlderSpringBoot3TheUpgradeIsNamed() {
		FailureAnalysis analysis = analyze(Line.SPRING_BOOT_3, "3.4.10");
		assertThat(analysis.getDescription()).contains("Spring Boot 3.4.10", "built for Spring Boot 3.5");
		assertThat(analysis.getAction()).contains("Spring Boot 3.5 or later with dev.modelgate:modelgate-spring-boot3-starter",
				"Spring Boot 4.0 or later with dev.modelgate:modelgate-spring-boot-starter");
	}

	@Test
	void onSpringBoot2NeitherLineFits() {
		FailureAnalysis analysis = analyze(Line.SPRING_BOOT_3, "2.7.18");
		assertThat(analysis.getAction()).startsWith("Run the application on one of the Spring Boot versions");
	}

	@Test
	void springBoot4LineRefusesSpringBoot3AndNamesTheSpringBoot3Starter() {
		FailureAnalysis analysis = analyze(Line.SPRING_BOOT_4, "3.5.7");
		assertThat(analysis.getAction()).startsWith(
				"Depend on dev.modelgate:modelgate-spring-boot3-starter instead of dev.modelgate:modelgate-spring-boot-starter");
	}

	@Test
	void onlyTheNewestLineMayTryASpringBootNewerThanAnyLine() {
		assertThatNoException().isThrownBy(() -> SpringBootLineVerifier.verify(Line.SPRING_BOOT_4, "5.0.0"));
		assertThat(analyze(Line.SPRING_BOOT_3, "5.0.0").getAction())
			.startsWith("Run the application on one of the Spring Boot versions");
	}

	@Test
	void verifierAndAnalyzerAreRegisteredForEverySpringApplication() {
		SpringFactoriesLoader factories = SpringFactoriesLoader.forDefaultResourceLocation();
		// Other jars' analyzers need constructor arguments this test does not give: skip them.
		SpringFactoriesLoader.FailureHandler skip = (type, name, failure) -> {
		};
		assertThat(factories.load(ApplicationContextInitializer.class, skip))
			.hasAtLeastOneElementOfType(SpringBoot3LineVerifier.class);
		assertThat(factories.load(FailureAnalyzer.class, skip))
			.hasAtLeastOneElementOfType(WrongSpringBootLineFailureAnalyzer.class);
	}

	@Test
	void registeredVerifierPassesOnTheSpringBootItRunsOn() {
		assertThatNoException()
			.isThrownBy(() -> new SpringBoot3LineVerifier().initialize(new GenericApplicationContext()));
	}

	private static FailureAnalysis analyze(Line builtFor, String version) {
		WrongSpringBootLineException failure = catchThrowableOfType(WrongSpringBootLineException.class,
				() -> SpringBootLineVerifier.verify(builtFor, version));
		assertThat(failure).as("refused on " + version).isNotNull();
		return new WrongSpringBootLineFailureAnalyzer().analyze(failure);
	}

}
