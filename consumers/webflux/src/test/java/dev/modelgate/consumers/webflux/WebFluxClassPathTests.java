package dev.modelgate.consumers.webflux;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Proves that the starter brings neither Spring MVC nor the servlet API into a WebFlux application
 * (Spring Boot would then start a servlet application), so that the replay test keeps proving the
 * reactive filter. It does not start the application.
 */
@Tag("boot")
class WebFluxClassPathTests {

	private static final ClassLoader APPLICATION_CLASS_LOADER = ClassUtils.getDefaultClassLoader();

	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.web.servlet.DispatcherServlet", "jakarta.servlet.Servlet" })
	void springMvcAndServletClassesAreAbsent(String className) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(className, false, APPLICATION_CLASS_LOADER));
	}

	@ParameterizedTest
	@ValueSource(strings = { "dev.modelgate.idempotency.Idempotent",
			"dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter", "org.springframework.web.reactive.DispatcherHandler" })
	void starterAndWebFluxClassesArePresent(String className) throws ClassNotFoundException {
		assertThat(Class.forName(className, false, APPLICATION_CLASS_LOADER)).isNotNull();
	}

}
