package dev.modelgate.idempotency.web.testapp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * A small application with @Idempotent endpoints for every behaviour the filter promises.
 *
 * <p>The Spring Boot 3 line's variant: the shared tests leave out the DataSource auto-configuration by
 * its Spring Boot 4 name, which means nothing on Spring Boot 3, so this one leaves out Spring Boot 3's;
 * a test that wants the JDBC store declares its DataSource, as the shared JDBC test does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration(excludeName = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration")
@Import({ TestController.class, ClassLevelController.class, Invocations.class, CountingStorePostProcessor.class })
public class TestApplication {

}
