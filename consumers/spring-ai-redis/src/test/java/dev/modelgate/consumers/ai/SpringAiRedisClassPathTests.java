package dev.modelgate.consumers.ai;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Proves what the agent tests start on (test dependencies included): Spring AI's chat client, tool calling and OpenAI
 * chat model came with the documented starters, beside the starter's agent module and Spring Data Redis, and no JDBC,
 * so that the store the tool calls are recorded in can only be Redis. It does not start the application, so it
 * answers even when the application fails to start.
 */
@Tag("boot")
class SpringAiRedisClassPathTests {

	/** The class loader {@code SpringApplication} loads the application's classes with. */
	private static final ClassLoader APPLICATION_CLASS_LOADER = ClassUtils.getDefaultClassLoader();

	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.jdbc.core.JdbcTemplate", "com.zaxxer.hikari.HikariDataSource",
			"org.postgresql.Driver" })
	void jdbcClassesAreAbsent(String className) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(className, false, APPLICATION_CLASS_LOADER));
	}

	@ParameterizedTest
	@ValueSource(strings = { "dev.modelgate.idempotency.Idempotent", "dev.modelgate.idempotency.ai.IdempotentTool",
			"dev.modelgate.idempotency.ai.IdempotentToolCallingManager",
			"org.springframework.ai.chat.client.ChatClient", "org.springframework.ai.model.tool.ToolCallingManager",
			"org.springframework.ai.openai.OpenAiChatModel", "org.springframework.web.servlet.DispatcherServlet",
			"org.springframework.data.redis.core.StringRedisTemplate", "io.lettuce.core.RedisClient" })
	void starterSpringAiSpringMvcAndRedisClassesArePresent(String className) throws ClassNotFoundException {
		assertThat(Class.forName(className, false, APPLICATION_CLASS_LOADER)).isNotNull();
	}

}
