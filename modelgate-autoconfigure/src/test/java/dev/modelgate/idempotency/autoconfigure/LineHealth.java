package dev.modelgate.idempotency.autoconfigure;

import java.util.Map;

import org.springframework.context.ApplicationContext;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * The idempotency health of one Spring Boot line, for the tests both lines run. The lines' health
 * APIs differ in their package names only, so the health is read by method name.
 *
 * @param autoConfiguration the line's health contributor auto-configuration
 * @param indicator the line's health indicator type
 */
record LineHealth(Class<?> autoConfiguration, Class<?> indicator) {

	/**
	 * Reads the health of the {@code idempotencyHealthIndicator} bean.
	 * @param context the application context
	 * @return its status code and details
	 */
	@SuppressWarnings("unchecked")
	StoreHealth read(ApplicationContext context) {
		Object health = ReflectionTestUtils.invokeMethod(context.getBean("idempotencyHealthIndicator", this.indicator),
				"health");
		Object status = ReflectionTestUtils.invokeMethod(health, "getStatus");
		return new StoreHealth(ReflectionTestUtils.invokeMethod(status, "getCode"),
				(Map<String, Object>) ReflectionTestUtils.invokeMethod(health, "getDetails"));
	}

	/**
	 * A health's status code and details.
	 *
	 * @param status the status code
	 * @param details the details
	 */
	record StoreHealth(String status, Map<String, Object> details) {

	}

}
