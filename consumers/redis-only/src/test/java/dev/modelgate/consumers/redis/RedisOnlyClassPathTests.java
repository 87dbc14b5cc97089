package dev.modelgate.consumers.redis;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Proves that the class path the Redis-only application starts on in its tests (test dependencies included) holds
 * Spring Data Redis but no JDBC, so that its replay test keeps proving the starter needs no JDBC. It does not start
 * the application, so it answers even when the application fails to start.
 */
@Tag("boot")
class RedisOnlyClassPathTests {

	/** The class loader {@code SpringApplication} loads the application's classes with. */
	private static final ClassLoader APPLICATION_CLASS_LOADER = ClassUtils.getDefaultClassLoader();

	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.jdbc.core.JdbcTemplate",
			"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration", "com.zaxxer.hikari.HikariDataSource",
			"org.postgresql.Driver" })
	void jdbcClassesAreAbsent(String className) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(className, false, APPLICATION_CLASS_LOADER));
	}

	/** The starter brings the agent module, and nothing of Spring AI with it: an application without agents gets none. */
	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.ai.model.tool.ToolCallingManager",
			"org.springframework.ai.chat.client.ChatClient" })
	void springAiClassesAreAbsent(String className) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(className, false, APPLICATION_CLASS_LOADER));
	}

	@ParameterizedTest
	@ValueSource(strings = { "dev.modelgate.idempotency.Idempotent", "dev.modelgate.idempotency.ai.IdempotentTool",
			"org.springframework.web.servlet.DispatcherServlet",
			"org.springframework.data.redis.core.StringRedisTemplate", "io.lettuce.core.RedisClient" })
	void starterSpringMvcAndRedisClassesArePresent(String className) throws ClassNotFoundException {
		assertThat(Class.forName(className, false, APPLICATION_CLASS_LOADER)).isNotNull();
	}

}
