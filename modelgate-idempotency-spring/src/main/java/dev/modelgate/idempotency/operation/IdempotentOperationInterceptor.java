package dev.modelgate.idempotency.operation;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.AnnotationDurations;
import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.Reconciliation;
import dev.modelgate.idempotency.core.Reconciler;
import dev.modelgate.idempotency.core.ResultCodec;

/**
 * Runs {@link IdempotentOperation @IdempotentOperation} methods through an
 * {@link IdempotencyTemplate}: evaluates the key, fingerprint and reconciliation expressions against
 * the call, and keeps the result as JSON of the method's return type. What each annotated method
 * needs (parsed expressions, codec, durations, failure policy) is worked out on its first call and
 * kept.
 */
public class IdempotentOperationInterceptor implements MethodInterceptor {

	private static final ExpressionParser PARSER = new SpelExpressionParser();

	private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private final IdempotencyTemplate template;

	private final OperationJson json;

	private final Duration waitTimeout;

	private final BeanFactory beanFactory;

	private final Map<MethodClassKey, Operation> operations = new ConcurrentHashMap<>();

	/**
	 * @param template runs the calls
	 * @param json keeps results and writes non-string fingerprints
	 * @param waitTimeout how long {@code inProgress = WAIT} methods wait for a running duplicate
	 * @param beanFactory resolves {@code @bean} references in expressions, or {@code null}
	 */
	public IdempotentOperationInterceptor(IdempotencyTemplate template, OperationJson json, Duration waitTimeout,
			BeanFactory beanFactory) {
		this.template = template;
		this.json = json;
		this.waitTimeout = waitTimeout;
		this.beanFactory = beanFactory;
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		Operation operation = this.operations.computeIfAbsent(new MethodClassKey(invocation.getMethod(), targetClass),
				(key) -> operation(invocation.getMethod(), targetClass));
		if (operation == null) {
			return invocation.proceed();
		}
		EvaluationContext context = operation.context(invocation.getArguments(), target, this.beanFactory);
		return this.template.execute(operation.call(context), invocation::proceed);
	}

	private Operation operation(Method method, Class<?> targetClass) {
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		IdempotentOperation annotation = AnnotatedElementUtils.findMergedAnnotation(specific,
				IdempotentOperation.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(method, IdempotentOperation.class);
		}
		if (annotation == null) {
			return null;
		}
		String where = ClassUtils.getUserClass(targetClass).getName() + "." + method.getName();
		try {
			return new Operation(specific, targetClass, annotation, where);
		}
		catch (IllegalArgumentException | ParseException ex) {
			throw new IllegalStateException("@IdempotentOperation on " + where + ": " + ex.getMessage(), ex);
		}
	}

	/** One annotated method, ready to be called. */
	private final class Operation {

		private final Method method;

		private final Class<?> targetClass;

		private final String scope;

		private final Expression key;

		private final Expression fingerprint;

		private final Expression reconcile;

		private final Class<?> returnType;

		private final ResultCodec<Object> codec;

		private final Duration ttl;

		private final Duration leaseTtl;

		private final Duration waitTimeout;

		private final FailurePolicy failurePolicy;

		Operation(Method method, Class<?> targetClass, IdempotentOperation annotation, String where) {
			this.method = method;
			this.targetClass = targetClass;
			this.scope = StringUtils.hasText(annotation.scope()) ? annotation.scope() : where;
			if (!StringUtils.hasText(annotation.key())) {
				throw new IllegalArgumentException("key must be an expression, such as #orderId");
			}
			this.key = PARSER.parseExpression(annotation.key());
			this.fingerprint = parseIfPresent(annotation.fingerprint());
			this.reconcile = parseIfPresent(annotation.reconcile());
			ResolvableType returnType = ResolvableType.forMethodReturnType(method, targetClass);
			this.returnType = (method.getReturnType() == void.class) ? Void.class
					: ClassUtils.resolvePrimitiveIfNecessary(method.getReturnType());
			this.codec = codec(returnType.getType());
			this.ttl = AnnotationDurations.parse(annotation.ttl(), "ttl");
			this.leaseTtl = AnnotationDurations.parse(annotation.leaseTtl(), "leaseTtl");
			this.waitTimeout = (annotation.inProgress() == Idempotent.InProgress.WAIT)
					? IdempotentOperationInterceptor.this.waitTimeout : Duration.ZERO;
			this.failurePolicy = IdempotentOperationInterceptor.this.template.getDefaults()
				.failurePolicy()
				.retryOn(annotation.retryOn())
				.recordOn(annotation.recordOn())
				.unknownOn(annotation.unknownOn());
		}

		private ResultCodec<Object> codec(Type returnType) {
			Class<?> type = this.returnType;
			if (type == Void.class) {
				return ResultCodec.none();
			}
			if (CompletionStage.class.isAssignableFrom(type) || Future.class.isAssignableFrom(type)
					|| type.getName().startsWith("org.reactivestreams.") || type.getName().startsWith("reactor.core.")) {
				throw new IllegalArgumentException("asynchronous return type " + type.getName()
						+ " is not supported: its result would be recorded before it exists");
			}
			return IdempotentOperationInterceptor.this.json.codec(returnType);
		}

		EvaluationContext context(Object[] args, Object target, BeanFactory beanFactory) {
			MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(
					new OperationExpressionRoot(this.method, args, target, this.targetClass), this.method, args,
					PARAMETER_NAMES);
			if (beanFactory != null) {
				context.setBeanResolver(new BeanFactoryResolver(beanFactory));
			}
			return context;
		}

		IdempotentCall<Object> call(EvaluationContext context) {
			Object keyValue = this.key.getValue(context);
			if (keyValue == null || keyValue.toString().isEmpty()) {
				throw new IllegalArgumentException("The key expression '" + this.key.getExpressionString() + "' of "
						+ this.scope + " evaluated to " + ((keyValue == null) ? "null" : "an empty string"));
			}
			IdempotentCall<Object> call = IdempotentCall.of(this.scope, keyValue.toString(), this.codec)
				.withWaitTimeout(this.waitTimeout)
				.withFailurePolicy(this.failurePolicy);
			if (this.ttl != null) {
				call = call.withTtl(this.ttl);
			}
			if (this.leaseTtl != null) {
				call = call.withLeaseTtl(this.leaseTtl);
			}
			if (this.fingerprint != null) {
				call = call.withFingerprint(fingerprint(this.fingerprint.getValue(context)));
			}
			if (this.reconcile != null) {
				call = call.withReconciler(reconciler(context));
			}
			return call;
		}

		private String fingerprint(Object value) {
			if (value == null) {
				return "";
			}
			if (value instanceof CharSequence text) {
				return text.toString();
			}
			try {
				return IdempotentOperationInterceptor.this.json.fingerprint(value);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("The fingerprint expression '" + this.fingerprint.getExpressionString()
						+ "' of " + this.scope + " gave a value that cannot be written as JSON: " + ex.getMessage(), ex);
			}
		}

		/** Evaluated only when a retry finds an unknown outcome, so lookups cost nothing otherwise. */
		private Reconciler<Object> reconciler(EvaluationContext context) {
			return () -> {
				Object found = this.reconcile.getValue(context);
				if (found instanceof Optional<?> optional) {
					found = optional.orElse(null);
				}
				if (found == null) {
					return Reconciliation.notFound();
				}
				if (this.returnType == Void.class) {
					if (found instanceof Boolean present) {
						return present ? Reconciliation.found(null) : Reconciliation.notFound();
					}
					throw new IllegalStateException("The reconcile expression of void method " + this.scope
							+ " must answer true or false, not " + found.getClass().getName());
				}
				if (!this.returnType.isInstance(found)) {
					throw new IllegalStateException("The reconcile expression of " + this.scope + " answered a "
							+ found.getClass().getName() + ", not a " + this.returnType.getName());
				}
				return Reconciliation.found(found);
			};
		}

		private static Expression parseIfPresent(String expression) {
			return StringUtils.hasText(expression) ? PARSER.parseExpression(expression) : null;
		}

	}

}
