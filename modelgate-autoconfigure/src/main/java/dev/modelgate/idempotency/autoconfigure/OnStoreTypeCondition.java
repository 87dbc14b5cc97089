package dev.modelgate.idempotency.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;

/** Backs {@link ConditionalOnStoreType}: {@code memory} is only ever chosen by name. */
class OnStoreTypeCondition extends SpringBootCondition {

	static final String PROPERTY = "modelgate.idempotency.store";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		StoreType wanted = (StoreType) metadata.getAnnotationAttributes(ConditionalOnStoreType.class.getName())
			.get("value");
		StoreType configured = configuredStore(context);
		if (configured == wanted || (configured == StoreType.AUTO && wanted != StoreType.MEMORY)) {
			return ConditionOutcome.match(PROPERTY + " is " + configured);
		}
		return ConditionOutcome.noMatch(PROPERTY + " is " + configured + ", not " + wanted);
	}

	static StoreType configuredStore(ConditionContext context) {
		return Binder.get(context.getEnvironment()).bind(PROPERTY, StoreType.class).orElse(StoreType.AUTO);
	}

}
