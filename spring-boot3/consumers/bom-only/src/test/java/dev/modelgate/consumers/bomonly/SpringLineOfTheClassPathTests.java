package dev.modelgate.consumers.bomonly;

import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.core.SpringVersion;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.server.WebFilter;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyWebFluxAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With our BOM and no Spring Boot BOM, the starter declared before Spring Boot's: the class path is
 * Spring Boot 3.5 and Spring Framework 6.2 throughout (a Spring artifact at the version our shared
 * modules are compiled against, 7.x, would break the application at run time), and the idempotency
 * filter is there.
 */
@Tag("boot")
class SpringLineOfTheClassPathTests {

	@Test
	void everySpringJarIsOfTheApplicationsSpringBootLine() {
		assertThat(SpringBootVersion.getVersion()).startsWith("3.5.");
		assertThat(SpringVersion.getVersion()).startsWith("6.2.");
		for (Class<?> type : List.of(WebFilter.class, DispatcherHandler.class, ApplicationContext.class,
				EnableAutoConfiguration.class)) {
			String version = type.getPackage().getImplementationVersion();
			assertThat(version).as(type.getName()).matches("(6\\.2|3\\.5)\\..*");
		}
	}

	@Test
	void theIdempotencyFilterIsThere() {
		new ReactiveWebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(
					org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration.class,
					dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration.class,
					ModelgateIdempotencyWebFluxAutoConfiguration.class))
			.withPropertyValues("modelgate.idempotency.store=memory")
			.run((context) -> assertThat(context).hasNotFailed().getBeans(WebFilter.class).isNotEmpty());
	}

}
