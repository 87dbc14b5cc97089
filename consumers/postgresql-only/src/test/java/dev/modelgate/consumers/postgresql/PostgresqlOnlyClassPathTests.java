package dev.modelgate.consumers.postgresql;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Proves that the class path the PostgreSQL-only application starts on in its tests (test dependencies included)
 * holds JDBC and the PostgreSQL driver but no Redis, so that its replay test keeps proving the starter needs no
 * Redis. It does not start the application, so it answers even when the application fails to start.
 */
@Tag("boot")
class PostgresqlOnlyClassPathTests {

	/** The class loader {@code SpringApplication} loads the application's classes with. */
	private static final ClassLoader APPLICATION_CLASS_LOADER = ClassUtils.getDefaultClassLoader();

	@ParameterizedTest
	@ValueSource(strings = { "org.springframework.data.redis.connection.RedisConnectionFactory",
			"org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration", "io.lettuce.core.RedisClient",
			"redis.clients.jedis.Jedis" })
	void redisClassesAreAbsent(String className) {
		assertThatExceptionOfType(ClassNotFoundException.class)
			.isThrownBy(() -> Class.forName(className, false, APPLICATION_CLASS_LOADER));
	}

	@ParameterizedTest
	@ValueSource(strings = { "dev.modelgate.idempotency.Idempotent", "org.springframework.web.servlet.DispatcherServlet",
			"org.springframework.jdbc.core.JdbcTemplate", "org.postgresql.Driver" })
	void starterSpringMvcAndJdbcClassesArePresent(String className) throws ClassNotFoundException {
		assertThat(Class.forName(className, false, APPLICATION_CLASS_LOADER)).isNotNull();
	}

}
