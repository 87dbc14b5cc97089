package dev.modelgate.idempotency.messaging;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Base64;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.AnnotationDurations;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.operation.OperationDefinition;
import dev.modelgate.idempotency.operation.OperationSource;

/**
 * Reads {@link IdempotentListener @IdempotentListener}: key, scope and fingerprint from the message
 * the listener thread is handling ({@link InboundMessages}).
 */
public class IdempotentListenerSource implements OperationSource {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	@Override
	public Class<? extends Annotation> annotationType() {
		return IdempotentListener.class;
	}

	@Override
	public OperationDefinition definition(Method method, Class<?> targetClass, Annotation found) {
		IdempotentListener annotation = (IdempotentListener) found;
		String methodName = OperationSource.methodName(method, targetClass);
		OperationDefinition.Value scope = StringUtils.hasText(annotation.scope())
				? OperationDefinition.Value.of(annotation.scope())
				: (context) -> methodName + "@" + InboundMessages.current().listener();
		return new OperationDefinition(scope, key(annotation), IdempotentListenerSource::fingerprint, null,
				AnnotationDurations.parse(annotation.ttl(), "ttl"),
				AnnotationDurations.parse(annotation.leaseTtl(), "leaseTtl"), false,
				(policy) -> policy.retryOn(annotation.retryOn()).recordOn(annotation.recordOn()));
	}

	private static OperationDefinition.Value key(IdempotentListener annotation) {
		if (StringUtils.hasText(annotation.key())) {
			Expression expression = PARSER.parseExpression(annotation.key());
			return new OperationDefinition.Value() {
				@Override
				public @Nullable Object get(EvaluationContext context) {
					context.setVariable("message", InboundMessages.current().message());
					return expression.getValue(context);
				}

				@Override
				public String toString() {
					return "expression '" + expression.getExpressionString() + "'";
				}
			};
		}
		if (annotation.messageId()) {
			return (context) -> required(InboundMessages.current().messageId(), "no message id");
		}
		String header = annotation.keyHeader();
		return (context) -> required(InboundMessages.current().headers().apply(header), "no header '" + header + "'");
	}

	private static String required(@Nullable String key, String missing) {
		if (key == null || key.isEmpty()) {
			throw new InvalidIdempotencyKeyException("The message has " + missing + ", the key of its idempotent listener");
		}
		return key;
	}

	/** The payload as received: text as is, bytes in Base64, anything else as JSON (by the interceptor). */
	private static @Nullable Object fingerprint(EvaluationContext context) {
		Object payload = InboundMessages.current().payload();
		return (payload instanceof byte[] bytes) ? Base64.getEncoder().encodeToString(bytes) : payload;
	}

}
