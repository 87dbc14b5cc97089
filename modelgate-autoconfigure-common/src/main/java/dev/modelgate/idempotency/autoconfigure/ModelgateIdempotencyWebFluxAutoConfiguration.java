package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.util.StringUtils;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.util.pattern.PathPatternParser;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.internal.BlockingIdempotencyStoreAdapter;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreDecorator;
import dev.modelgate.idempotency.core.RecordEncryption;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;
import dev.modelgate.idempotency.web.reactive.DefaultReactiveClientIdentityResolver;
import dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.reactive.ReactiveClientIdentityResolver;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotentHandlerResolver;
import dev.modelgate.idempotency.web.reactive.ReactiveProblemDetailRenderer;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;

/**
 * Auto-configures Idempotency-Key handling in a reactive (WebFlux) web application: the
 * {@link IdempotencyWebFilter} for {@code @Idempotent} handlers and the
 * {@link ReactiveIdempotencyEngine} under it (which a Spring Cloud Gateway filter reuses), on the
 * store {@link ModelgateIdempotencyAutoConfiguration} picked. Its store calls go through an
 * {@link AsyncIdempotencyStore}: the application's bean when there is one (a reactive Redis store),
 * else the {@link IdempotencyStore} adapted by a {@link BlockingIdempotencyStoreAdapter}, whose calls
 * run on a bounded pool of their own (or directly, for the memory store), so that no event-loop thread
 * waits for the store.
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnClass({ DispatcherHandler.class, IdempotencyWebFilter.class })
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
public class ModelgateIdempotencyWebFluxAutoConfiguration {

	/**
	 * The blocking store behind a bounded pool, the store decorators (metrics, tracing) around it so
	 * that they measure the store and not the queue. Not encryption: the engine applies it, to whichever
	 * asynchronous store it is given.
	 */
	@Bean
	@ConditionalOnMissingBean(AsyncIdempotencyStore.class)
	BlockingIdempotencyStoreAdapter reactiveIdempotencyStore(IdempotencyStore store,
			ModelgateIdempotencyProperties properties, ObjectProvider<IdempotencyStoreDecorator> decorators) {
		ModelgateIdempotencyProperties.Reactive reactive = properties.getReactive();
		return BlockingIdempotencyStoreAdapter.create(
				IdempotencyStoreDecorator.decorateAll(store, decorators.orderedStream().toList()),
				properties.getOperationTimeout(), reactive.getStoreThreads(), reactive.getStoreQueueCapacity());
	}

	@Bean
	@ConditionalOnMissingBean
	ReactiveClientIdentityResolver reactiveIdempotencyClientIdentityResolver(ModelgateIdempotencyProperties properties) {
		KeyedRequestProperties.warnWithoutIdentityHeader(properties, "ReactiveClientIdentityResolver");
		return new DefaultReactiveClientIdentityResolver(properties.getClientIdentityHeader());
	}

	@Bean
	@ConditionalOnMissingBean
	ResponsePolicy idempotencyResponsePolicy(ModelgateIdempotencyProperties properties) {
		return KeyedRequestProperties.responsePolicy(properties);
	}

	/** Written with the application's codecs, so with its JSON library and settings. */
	@Bean
	@ConditionalOnMissingBean
	ReactiveIdempotencyProblemRenderer reactiveIdempotencyProblemRenderer(
			ObjectProvider<ServerCodecConfigurer> codecs) {
		return new ReactiveProblemDetailRenderer(codecs.getIfAvailable(ServerCodecConfigurer::create).getWriters());
	}

	@Bean
	@ConditionalOnMissingBean
	ReactiveIdempotentHandlerResolver reactiveIdempotentHandlerResolver(BeanFactory beanFactory,
			ModelgateIdempotencyProperties properties) {
		ReactiveIdempotentHandlerResolver resolver = new ReactiveIdempotentHandlerResolver(
				() -> beanFactory.getBeanProvider(HandlerMapping.class).orderedStream().toList(),
				KeyedRequestProperties.endpointDefaults(properties));
		resolver.setRoutes(properties.getRoutes().stream().map((route) -> route(route, properties)).toList());
		return resolver;
	}

	/** A configured route with the global settings where it sets none, checked as an annotation is. */
	private static ReactiveIdempotentHandlerResolver.Route route(ModelgateIdempotencyProperties.Route route,
			ModelgateIdempotencyProperties properties) {
		if (!StringUtils.hasText(route.getMethod()) || !StringUtils.hasText(route.getPath())) {
			throw new IllegalStateException("modelgate.idempotency.routes: every route needs a method and a path");
		}
		ModelgateIdempotencyProperties.InProgress inProgress = (route.getInProgress() != null) ? route.getInProgress()
				: properties.getInProgress();
		String path = route.getPath();
		IdempotentEndpoint endpoint = new IdempotentEndpoint(path,
				StringUtils.hasText(route.getScope()) ? route.getScope() : path, route.isRequired(),
				(route.getTtl() != null) ? route.getTtl() : properties.getTtl(),
				(route.getLeaseTtl() != null) ? route.getLeaseTtl() : properties.getLeaseTtl(),
				(inProgress == ModelgateIdempotencyProperties.InProgress.WAIT) ? properties.getWaitTimeout()
						: Duration.ZERO,
				CanonicalBody.pointers(route.getIgnoreFields().toArray(new String[0])),
				(route.getOnStoreFailure() == ModelgateIdempotencyProperties.StoreFailure.PROCEED)
						? Idempotent.StoreFailure.PROCEED : Idempotent.StoreFailure.REJECT,
				route.isAttachToStream(), properties.getSpentKeyRetention(), "Location");
		return new ReactiveIdempotentHandlerResolver.Route(route.getMethod().trim(),
				PathPatternParser.defaultInstance.parse(path), endpoint);
	}

	/**
	 * The engine under the WebFlux filter and the gateway filter: the one place every reactive store call
	 * goes through, whichever {@link AsyncIdempotencyStore} serves it (the adapted blocking store, the
	 * reactive Redis store, an application's own), so what is stored is decided here: the application's
	 * {@link StoredOutcomeFilter}, then encryption, as for the blocking coordinator.
	 */
	@Bean
	@ConditionalOnMissingBean
	ReactiveIdempotencyEngine reactiveIdempotencyEngine(AsyncIdempotencyStore store,
			ReactiveClientIdentityResolver identityResolver, ResponsePolicy responsePolicy,
			ReactiveIdempotencyProblemRenderer problemRenderer, ModelgateIdempotencyProperties properties,
			ObjectProvider<IdempotencyListener> listeners, ObjectProvider<RecordEncryptionKeys> encryptionKeys,
			ObjectProvider<StoredOutcomeFilter> outcomeFilter) {
		RecordEncryptionKeys keys = encryptionKeys.getIfAvailable();
		AsyncIdempotencyStore stored = (keys != null) ? new RecordEncryption(keys).decorate(store) : store;
		StoredOutcomeFilter filter = outcomeFilter.getIfAvailable();
		stored = (filter != null) ? filter.decorate(stored) : stored;
		ReactiveIdempotencyEngine engine = new ReactiveIdempotencyEngine(stored, identityResolver, responsePolicy,
				problemRenderer, new ReplayHeaders(properties.getReplayHeaders()),
				KeyedRequestProperties.settings(properties,
						identityResolver instanceof DefaultReactiveClientIdentityResolver));
		engine.setListeners(listeners.orderedStream().toList());
		engine.setStreamSettings(KeyedRequestProperties.streamSettings(properties));
		engine.setStatusPath(properties.getStatusPath());
		return engine;
	}

	@Bean
	@ConditionalOnMissingBean
	IdempotencyWebFilter idempotencyWebFilter(ReactiveIdempotentHandlerResolver handlerResolver,
			ReactiveIdempotencyEngine engine) {
		return new IdempotencyWebFilter(handlerResolver, engine);
	}

}
