package dev.modelgate.idempotency.outbox;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.core.internal.AnnotationDurations;
import dev.modelgate.idempotency.operation.OperationDefinition;
import dev.modelgate.idempotency.operation.OperationExpressionRoot;
import dev.modelgate.idempotency.operation.OperationSource;

/**
 * Reads {@link IdempotentEventListener @IdempotentEventListener}: the key is the
 * {@link IdempotentEvent#idempotencyKey()} of the listener's event argument. There is no fingerprint:
 * the key was derived from the publishing run and the event's name, so it already says which side
 * effect this is (and an event read back from the registry need not serialize byte for byte as it was
 * published).
 */
public class IdempotentEventListenerSource implements OperationSource {

	@Override
	public Class<? extends Annotation> annotationType() {
		return IdempotentEventListener.class;
	}

	@Override
	public OperationDefinition definition(Method method, Class<?> targetClass, Annotation found) {
		IdempotentEventListener annotation = (IdempotentEventListener) found;
		int event = eventParameter(method);
		OperationDefinition.Value key = new OperationDefinition.Value() {
			@Override
			public @Nullable Object get(EvaluationContext context) {
				Object argument = ((OperationExpressionRoot) context.getRootObject().getValue()).getArgs()[event];
				return (argument != null) ? ((IdempotentEvent) argument).idempotencyKey() : null;
			}

			@Override
			public String toString() {
				return "the idempotency key of the event";
			}
		};
		return new OperationDefinition(
				OperationDefinition.Value.of(StringUtils.hasText(annotation.scope()) ? annotation.scope()
						: OperationSource.methodName(method, targetClass)),
				key, null, null, AnnotationDurations.parse(annotation.ttl(), "ttl"),
				AnnotationDurations.parse(annotation.leaseTtl(), "leaseTtl"), false,
				(policy) -> policy.retryOn(annotation.retryOn()).recordOn(annotation.recordOn()));
	}

	private static int eventParameter(Method method) {
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length; i++) {
			if (IdempotentEvent.class.isAssignableFrom(types[i])) {
				return i;
			}
		}
		throw new IllegalArgumentException("An @IdempotentEventListener method takes an IdempotentEvent, whose "
				+ "idempotencyKey() is the key of its side effect; " + method + " takes none");
	}

}
