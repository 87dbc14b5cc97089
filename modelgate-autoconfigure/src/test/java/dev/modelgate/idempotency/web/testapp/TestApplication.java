package dev.modelgate.idempotency.web.testapp;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/** A small application with @Idempotent endpoints for every behaviour the filter promises. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ TestController.class, ClassLevelController.class, Invocations.class, CountingStorePostProcessor.class })
public class TestApplication {

}
