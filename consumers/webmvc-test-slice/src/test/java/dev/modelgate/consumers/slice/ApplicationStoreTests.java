package dev.modelgate.consumers.slice;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Outside the slice nothing changes: the application itself never falls back to the in-memory store. It picks
 * Redis, and with Redis's auto-configuration excluded it fails to start with a message that is true for it.
 * None of this talks to Redis: the client connects on first use.
 */
@Tag("boot")
@ExtendWith(OutputCaptureExtension.class)
class ApplicationStoreTests {

	/** Redis's auto-configuration on Spring Boot 4, then on Spring Boot 3 (an absent class is not excluded). */
	private static final String REDIS_AUTO_CONFIGURATION = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration,"
			+ "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration";

	/** {@code @AutoConfigureWebMvc} on Spring Boot 4, then on Spring Boot 3. */
	private static final String[] AUTO_CONFIGURE_WEB_MVC = {
			"org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureWebMvc",
			"org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureWebMvc" };

	@Test
	void applicationPicksRedis() {
		try (ConfigurableApplicationContext context = application().run()) {
			assertThat(context.getBeansOfType(IdempotencyStore.class).values()).singleElement()
				.isInstanceOf(RedisIdempotencyStore.class);
		}
	}

	@Test
	void applicationWithoutAStoreStillFailsToStart(CapturedOutput output) {
		assertThatException().isThrownBy(
				() -> application().properties("spring.autoconfigure.exclude=" + REDIS_AUTO_CONFIGURATION).run());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Spring Data Redis is on the class path, but its auto-configuration did not define a "
					+ "RedisConnectionFactory")
			.doesNotContain("add org.springframework.boot:spring-boot-starter-data-redis")
			.doesNotContain("test slice");
	}

	@Test
	void starterIsListedInTheImportsOfAutoConfigureWebMvc() throws ClassNotFoundException {
		ClassLoader loader = getClass().getClassLoader();
		String name = ClassUtils.isPresent(AUTO_CONFIGURE_WEB_MVC[0], loader) ? AUTO_CONFIGURE_WEB_MVC[0]
				: AUTO_CONFIGURE_WEB_MVC[1];
		assertThat(ImportCandidates.load(ClassUtils.forName(name, loader), loader))
			.contains("dev.modelgate.idempotency.autoconfigure.test.ModelgateIdempotencyTestSliceAutoConfiguration",
					"dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyAutoConfiguration");
	}

	private static SpringApplicationBuilder application() {
		return new SpringApplicationBuilder(OrdersApplication.class).properties("server.port=0");
	}

}
