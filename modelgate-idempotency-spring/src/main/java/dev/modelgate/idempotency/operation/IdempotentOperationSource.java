package dev.modelgate.idempotency.operation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.core.internal.AnnotationDurations;

/** Reads {@link IdempotentOperation @IdempotentOperation}: key, fingerprint and reconciliation as SpEL. */
final class IdempotentOperationSource implements OperationSource {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	@Override
	public Class<? extends Annotation> annotationType() {
		return IdempotentOperation.class;
	}

	@Override
	public OperationDefinition definition(Method method, Class<?> targetClass, Annotation found) {
		IdempotentOperation annotation = (IdempotentOperation) found;
		if (!StringUtils.hasText(annotation.key())) {
			throw new IllegalArgumentException("key must be an expression, such as #orderId");
		}
		Expression fingerprint = parseIfPresent(annotation.fingerprint());
		return new OperationDefinition(
				OperationDefinition.Value.of(StringUtils.hasText(annotation.scope()) ? annotation.scope()
						: OperationSource.methodName(method, targetClass)),
				OperationDefinition.Value.of(PARSER.parseExpression(annotation.key())),
				(fingerprint != null) ? OperationDefinition.Value.of(fingerprint) : null,
				parseIfPresent(annotation.reconcile()), AnnotationDurations.parse(annotation.ttl(), "ttl"),
				AnnotationDurations.parse(annotation.leaseTtl(), "leaseTtl"),
				annotation.inProgress() == Idempotent.InProgress.WAIT, (policy) -> policy.retryOn(annotation.retryOn())
					.recordOn(annotation.recordOn())
					.unknownOn(annotation.unknownOn()),
				AnnotationDurations.parseZeroOrMore(annotation.spentKeyRetention(), "spentKeyRetention"));
	}

	private static Expression parseIfPresent(String expression) {
		return StringUtils.hasText(expression) ? PARSER.parseExpression(expression) : null;
	}

}
