package dev.modelgate.idempotency.autoconfigure;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.autoconfigure.test.ModelgateIdempotencyTestSliceAutoConfiguration;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

/**
 * In a test slice (a context with {@link ModelgateIdempotencyTestSliceAutoConfiguration}, as every
 * {@code @WebMvcTest} has), {@code store=auto} falls back to the in-memory store, after Redis and JDBC and only
 * when the test configures no store; outside a slice it never does. The real {@code @WebMvcTest} is in
 * consumers/webmvc-test-slice.
 */
@Tag("boot")
class ModelgateIdempotencyTestSliceAutoConfigurationTests {

	private static final String SLICE = ModelgateIdempotencyTestSliceAutoConfiguration.class.getName();

	private final WebApplicationContextRunner applicationRunner = new WebApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class, JacksonAutoConfiguration.class));

	private final WebApplicationContextRunner sliceRunner = this.applicationRunner
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyTestSliceAutoConfiguration.class));

	@Test
	void sliceWithoutAStoreGetsTheInMemoryStoreAndTheFilter() {
		this.sliceRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class);
			assertThat(context).hasSingleBean(IdempotencyFilter.class);
		});
	}

	@Test
	void sliceWithStoreAutoSetExplicitlyGetsTheInMemoryStore() {
		this.sliceRunner.withPropertyValues("modelgate.idempotency.store=auto")
			.run((context) -> assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class));
	}

	@Test
	void sliceWithoutRedisOnTheClassPathGetsTheInMemoryStore() {
		this.sliceRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.run((context) -> assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class));
	}

	@Test
	void storeBeanOfTheTestWinsOverTheInMemoryStore() {
		this.sliceRunner.withUserConfiguration(TestStoreConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context.getBean(IdempotencyStore.class)).isSameAs(context.getBean("testStore"));
		});
	}

	@Test
	void redisConnectionFactoryInASliceWinsOverTheInMemoryStore() {
		this.sliceRunner.withUserConfiguration(RedisConnectionFactoryConfiguration.class).run((context) -> {
			assertThat(context).hasSingleBean(IdempotencyStore.class);
			assertThat(context).hasSingleBean(RedisIdempotencyStore.class);
		});
	}

	@Test
	void storeNamedInASliceIsUsedAndFailsWithATrueMessageWhenItIsNotThere() {
		this.sliceRunner.withPropertyValues("modelgate.idempotency.store=redis").run((context) -> {
			assertThat(context).hasFailed();
			NoIdempotencyStoreException cause = noStoreCause(context.getStartupFailure());
			assertThat(cause.getStoreType()).isEqualTo(StoreType.REDIS);
			assertThat(cause.isTestSlice()).isTrue();
			FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription()).contains("modelgate.idempotency.store=redis")
				.contains("test slice")
				.contains("auto-configures neither Redis nor a DataSource");
			assertThat(analysis.getAction())
				.contains("@WebMvcTest(properties = \"modelgate.idempotency.store=memory\")")
				.contains("IdempotencyStore")
				.doesNotContain("spring-boot-starter-data-redis");
		});
	}

	@Test
	void jdbcNamedInASliceWithoutADataSourceFailsStartUp() {
		this.sliceRunner.withPropertyValues("modelgate.idempotency.store=jdbc").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(noStoreCause(context.getStartupFailure()).getStoreType()).isEqualTo(StoreType.JDBC);
		});
	}

	@Test
	void memoryNamedInASliceIsTheInMemoryStore() {
		this.sliceRunner.withPropertyValues("modelgate.idempotency.store=memory")
			.withUserConfiguration(RedisConnectionFactoryConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(InMemoryIdempotencyStore.class));
	}

	@Test
	void applicationWithStoreAutoAndNoStoreStillFailsStartUp() {
		this.applicationRunner.run((context) -> {
			assertThat(context).hasFailed();
			NoIdempotencyStoreException cause = noStoreCause(context.getStartupFailure());
			assertThat(cause.getStoreType()).isEqualTo(StoreType.AUTO);
			assertThat(cause.isTestSlice()).isFalse();
			assertThat(context).getFailure().rootCause().isSameAs(cause);
		});
	}

	@Test
	void applicationWithRedisOnTheClassPathButNoConnectionFactoryIsNotToldToAddRedis() {
		this.applicationRunner.run((context) -> {
			assertThat(context).hasFailed();
			NoIdempotencyStoreException cause = noStoreCause(context.getStartupFailure());
			assertThat(cause.isRedisOnClassPath()).isTrue();
			FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis.getDescription())
				.contains("Spring Data Redis is on the class path, but its auto-configuration did not define a "
						+ "RedisConnectionFactory")
				.doesNotContain("test slice");
			assertThat(analysis.getAction()).contains("Spring Data Redis is already on the class path")
				.contains("DataRedisAutoConfiguration")
				.contains("modelgate.idempotency.store=memory")
				.doesNotContain("add org.springframework.boot:spring-boot-starter-data-redis");
		});
	}

	@Test
	void applicationWithoutRedisOnTheClassPathIsToldToAddIt() {
		this.applicationRunner.withClassLoader(new FilteredClassLoader("org.springframework.data.redis"))
			.run((context) -> {
				NoIdempotencyStoreException cause = noStoreCause(context.getStartupFailure());
				assertThat(cause.isRedisOnClassPath()).isFalse();
				FailureAnalysis analysis = new NoIdempotencyStoreFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis.getDescription()).doesNotContain("Spring Data Redis is on the class path");
				assertThat(analysis.getAction())
					.contains("add org.springframework.boot:spring-boot-starter-data-redis");
			});
	}

	@Test
	void sliceAutoConfigurationIsNeverAnApplicationAutoConfiguration() {
		ClassLoader classLoader = getClass().getClassLoader();
		assertThat(ImportCandidates.load(AutoConfiguration.class, classLoader)).doesNotContain(SLICE)
			.contains(ModelgateIdempotencyAutoConfiguration.class.getName());
	}

	private static NoIdempotencyStoreException noStoreCause(Throwable failure) {
		for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
			if (candidate instanceof NoIdempotencyStoreException noStore) {
				return noStore;
			}
		}
		throw new AssertionError("Start-up did not fail for want of a store", failure);
	}

	@Configuration(proxyBeanMethods = false)
	static class TestStoreConfiguration {

		@Bean
		IdempotencyStore testStore() {
			return new InMemoryIdempotencyStore();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RedisConnectionFactoryConfiguration {

		@Bean
		RedisConnectionFactory redisConnectionFactory() {
			return mock(RedisConnectionFactory.class);
		}

	}

}
