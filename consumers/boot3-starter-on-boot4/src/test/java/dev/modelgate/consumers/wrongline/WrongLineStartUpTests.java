package dev.modelgate.consumers.wrongline;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;

/**
 * The Spring Boot 3 starter on Spring Boot 4 stops the application before any bean is created, and the start-up
 * failure report names the starter to use instead.
 */
@Tag("boot")
@ExtendWith(OutputCaptureExtension.class)
class WrongLineStartUpTests {

	@Test
	void startUpFailsAndNamesTheSpringBoot4Starter(CapturedOutput output) {
		assertThat(SpringBootVersion.getVersion()).startsWith("4.");
		SpringApplication application = new SpringApplication(WrongLineApplication.class);

		assertThatRuntimeException().isThrownBy(() -> application.run("--server.port=0"))
			.withMessageContaining("modelgate-spring-boot3-starter needs Spring Boot 3.5");
		assertThat(output).contains("APPLICATION FAILED TO START",
				"The application runs on Spring Boot " + SpringBootVersion.getVersion()
						+ ", and dev.modelgate:modelgate-spring-boot3-starter is built for Spring Boot 3.5",
				"Depend on dev.modelgate:modelgate-spring-boot-starter instead of "
						+ "dev.modelgate:modelgate-spring-boot3-starter");
		assertThat(output).doesNotContain("Tomcat started");
	}

}
