package dev.modelgate.idempotency.autoconfigure;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreDecorator;
import dev.modelgate.idempotency.core.RecordEncryption;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;
import dev.modelgate.idempotency.web.servlet.ClientIdentityResolver;
import dev.modelgate.idempotency.web.servlet.DefaultClientIdentityResolver;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.IdempotentHandlerResolver;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;

/**
 * Auto-configures Idempotency-Key handling: a store (Redis, JDBC or memory, in that order of
 * preference under {@code store=auto}), the coordinator that drives the state machine on it, and,
 * in a servlet web application, the filter for {@code @Idempotent} endpoints. In a reactive web
 * application on Redis, a non-blocking Redis store beside the blocking one.
 *
 * <p>The store and coordinator do not require a web application, so that non-HTTP work can use them.
 */
// After the stores' and Jackson's auto-configurations of either Spring Boot line (4, then 3.5): a name
// that is not on the class path is ignored, so one list serves both.
@AutoConfiguration(afterName = { "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
		"org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration",
		"org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration",
		"org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration",
		"org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
		"org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration",
		"org.springframework.boot.autoconfigure.jackson.JacksonAutoConfiguration" })
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ModelgateIdempotencyProperties.class)
@Import({ RedisStoreConfiguration.class, ReactiveRedisStoreConfiguration.class, JdbcStoreConfiguration.class,
		MemoryStoreConfiguration.class, NoStoreConfiguration.class })
public class ModelgateIdempotencyAutoConfiguration {

	/**
	 * The coordinator that every blocking caller goes through (the servlet filter, the template and so
	 * the listeners and operations, the Actuator endpoint). What is stored is decided next to the
	 * store: the application's {@link StoredOutcomeFilter}, then encryption, innermost, so that the
	 * decorators (metrics, tracing) see what the application sees.
	 */
	@Bean
	@ConditionalOnMissingBean
	IdempotencyCoordinator idempotencyCoordinator(IdempotencyStore store, ModelgateIdempotencyProperties properties,
			ObjectProvider<IdempotencyStoreDecorator> decorators, ObjectProvider<RecordEncryptionKeys> encryptionKeys,
			ObjectProvider<StoredOutcomeFilter> outcomeFilter) {
		RecordEncryptionKeys keys = encryptionKeys.getIfAvailable();
		RecordEncryption encryption = (keys != null) ? new RecordEncryption(keys) : null;
		StoredOutcomeFilter filter = outcomeFilter.getIfAvailable();
		return IdempotencyCoordinator.create(store, properties.getOperationTimeout(), (bounded) -> {
			IdempotencyStore stored = (encryption != null) ? encryption.decorate(bounded) : bounded;
			stored = (filter != null) ? filter.decorate(stored) : stored;
			return IdempotencyStoreDecorator.decorateAll(stored, decorators.orderedStream().toList());
		});
	}

	/** The keys of {@code modelgate.idempotency.encryption}, which turn encryption at rest on. */
	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(prefix = "modelgate.idempotency.encryption", name = "active-key-id")
	RecordEncryptionKeys idempotencyRecordEncryptionKeys(ModelgateIdempotencyProperties properties) {
		return RecordEncryptionSettings.keys(properties.getEncryption());
	}

	/**
	 * The filter and its collaborators, for servlet web applications. Its problem renderer writes JSON
	 * with the Spring Boot line's Jackson: the line's module gives it ({@link ProblemRendererImports}).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass(DispatcherServlet.class)
	@Import(ProblemRendererImports.class)
	static class WebConfiguration {

		@Bean
		@ConditionalOnMissingBean
		ClientIdentityResolver idempotencyClientIdentityResolver(ModelgateIdempotencyProperties properties) {
			KeyedRequestProperties.warnWithoutIdentityHeader(properties, "ClientIdentityResolver");
			return new DefaultClientIdentityResolver(properties.getClientIdentityHeader());
		}

		@Bean
		@ConditionalOnMissingBean
		ResponsePolicy idempotencyResponsePolicy(ModelgateIdempotencyProperties properties) {
			return KeyedRequestProperties.responsePolicy(properties);
		}

		@Bean
		@ConditionalOnMissingBean
		IdempotentHandlerResolver idempotentHandlerResolver(BeanFactory beanFactory,
				ModelgateIdempotencyProperties properties) {
			IdempotentHandlerResolver resolver = new IdempotentHandlerResolver(
					() -> beanFactory.getBeanProvider(RequestMappingHandlerMapping.class)
						.stream()
						.filter((mapping) -> mapping.getClass() == RequestMappingHandlerMapping.class)
						.findFirst()
						.orElse(null),
					KeyedRequestProperties.endpointDefaults(properties));
			resolver.setDeclaredRoutes(DeclaredRoutes.of(properties.getRoutes()));
			// In the DispatcherServlet's order, for the functional routes that carry IdempotentRoute.
			resolver.setHandlerMappings(() -> beanFactory.getBeanProvider(HandlerMapping.class).orderedStream().toList());
			return resolver;
		}


		@Bean
		IdempotencyTimers idempotencyFilterTimers() {
			return new IdempotencyTimers("modelgate-idempotency-");
		}

		@Bean
		@ConditionalOnMissingBean
		IdempotencyFilter idempotencyFilter(IdempotentHandlerResolver handlerResolver,
				IdempotencyCoordinator coordinator, ClientIdentityResolver identityResolver,
				ResponsePolicy responsePolicy, IdempotencyProblemRenderer problemRenderer,
				ModelgateIdempotencyProperties properties, ObjectProvider<IdempotencyListener> listeners,
				IdempotencyTimers timers) {
			IdempotencyFilter filter = new IdempotencyFilter(handlerResolver, coordinator, identityResolver,
					responsePolicy, problemRenderer, new ReplayHeaders(properties.getReplayHeaders()),
					KeyedRequestProperties.settings(properties, identityResolver instanceof DefaultClientIdentityResolver),
					timers.executor());
			filter.setListeners(listeners.orderedStream().toList());
			filter.setStreamSettings(KeyedRequestProperties.streamSettings(properties));
			filter.setStatusPath(properties.getStatusPath());
			return filter;
		}

	}

}
