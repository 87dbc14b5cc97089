package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.autoconfigure.test.ModelgateIdempotencyTestSliceAutoConfiguration;

/**
 * Backs {@link ConditionalOnStoreType}: {@code memory} is chosen by name, or by {@code auto} in a
 * test slice (a context with {@link ModelgateIdempotencyTestSliceAutoConfiguration}), never by
 * {@code auto} in an application.
 *
 * <p>Evaluated when bean definitions are registered, not when configuration classes are parsed:
 * only then is the slice's auto-configuration, which runs before the starter's, already registered.
 */
class OnStoreTypeCondition extends SpringBootCondition implements ConfigurationCondition {

	static final String PROPERTY = "modelgate.idempotency.store";

	@Override
	public ConfigurationPhase getConfigurationPhase() {
		return ConfigurationPhase.REGISTER_BEAN;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		StoreType wanted = (StoreType) metadata.getAnnotationAttributes(ConditionalOnStoreType.class.getName())
			.get("value");
		StoreType configured = configuredStore(context);
		if (configured == wanted || (configured == StoreType.AUTO && wanted != StoreType.MEMORY)) {
			return ConditionOutcome.match(PROPERTY + " is " + configured);
		}
		if (configured == StoreType.AUTO && isTestSlice(context.getBeanFactory())) {
			return ConditionOutcome.match(PROPERTY + " is " + configured + " in a test slice");
		}
		return ConditionOutcome.noMatch(PROPERTY + " is " + configured + ", not " + wanted);
	}

	static StoreType configuredStore(ConditionContext context) {
		return Binder.get(context.getEnvironment()).bind(PROPERTY, StoreType.class).orElse(StoreType.AUTO);
	}

	/** Whether the context is a test slice that lets {@code auto} fall back to the in-memory store. */
	static boolean isTestSlice(@Nullable ConfigurableListableBeanFactory beanFactory) {
		return beanFactory != null && beanFactory
			.getBeanNamesForType(ModelgateIdempotencyTestSliceAutoConfiguration.class, true, false).length > 0;
	}

}
