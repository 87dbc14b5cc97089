package dev.modelgate.idempotency.web.testapp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * A small application with @Idempotent endpoints for every behaviour the filter promises.
 *
 * <p>Both Spring Boot lines run it. On Spring Boot 3.5 it leaves out the DataSource auto-configuration
 * (by its Spring Boot 3 name, which names nothing on Spring Boot 4), as the tests' properties leave it
 * out by its Spring Boot 4 name; a test that wants the JDBC store declares its DataSource, as the
 * shared JDBC test does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@Import({ TestController.class, ClassLevelController.class, Invocations.class, CountingStorePostProcessor.class })
public class TestApplication {

}
