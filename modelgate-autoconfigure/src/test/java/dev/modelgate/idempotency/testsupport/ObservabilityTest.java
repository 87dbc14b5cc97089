package dev.modelgate.idempotency.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Tag;

import org.springframework.boot.test.context.SpringBootTest;

import dev.modelgate.idempotency.web.testapp.ObservabilityController;
import dev.modelgate.idempotency.web.testapp.StoreObservations;
import dev.modelgate.idempotency.web.testapp.TestApplication;

/**
 * The test application on a real server with the memory store and Actuator, the idempotency
 * endpoint given access and exposed, and the transitions log at DEBUG. Requests without the
 * Authorization header share the anonymous scope, so that the tests can look it up. Every class so annotated
 * shares one application context.
 */
@Tag("boot")
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@SpringBootTest(classes = { TestApplication.class, ObservabilityController.class, StoreObservations.class },
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=memory",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"modelgate.idempotency.client-identity-header=Authorization",
				"modelgate.idempotency.unidentified-clients=share",
				"modelgate.idempotency.max-request-size=1KB",
				"management.endpoints.web.exposure.include=health,idempotency",
				"management.endpoint.idempotency.access=unrestricted",
				"management.endpoint.health.show-details=always",
				"logging.level.dev.modelgate.idempotency.transitions=debug" })
public @interface ObservabilityTest {

}
