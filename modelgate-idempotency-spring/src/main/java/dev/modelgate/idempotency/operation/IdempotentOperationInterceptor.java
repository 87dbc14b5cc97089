package dev.modelgate.idempotency.operation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.IdempotentOperation;
import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.Reconciliation;
import dev.modelgate.idempotency.core.Reconciler;
import dev.modelgate.idempotency.core.ResultCodec;

/**
 * Runs annotated methods through an {@link IdempotencyTemplate}: methods with
 * {@link IdempotentOperation @IdempotentOperation}, and those of any other annotation an
 * {@link OperationSource} reads (message listeners). Evaluates the key, scope, fingerprint and
 * reconciliation of each call, and keeps the result as JSON of the method's return type. What each
 * annotated method needs is worked out on its first call and kept.
 */
public class IdempotentOperationInterceptor implements MethodInterceptor {

	private static final ParameterNameDiscoverer PARAMETER_NAMES = new DefaultParameterNameDiscoverer();

	private final IdempotencyTemplate template;

	private final OperationJson json;

	private final Duration waitTimeout;

	private final BeanFactory beanFactory;

	private final List<OperationSource> sources;

	private final Map<MethodClassKey, Optional<Operation>> operations = new ConcurrentHashMap<>();

	/**
	 * @param template runs the calls
	 * @param json keeps results and writes non-string fingerprints
	 * @param waitTimeout how long {@code inProgress = WAIT} methods wait for a running duplicate
	 * @param beanFactory resolves {@code @bean} references in expressions, or {@code null}
	 * @param sources annotations read besides {@code @IdempotentOperation}
	 */
	public IdempotentOperationInterceptor(IdempotencyTemplate template, OperationJson json, Duration waitTimeout,
			BeanFactory beanFactory, List<? extends OperationSource> sources) {
		this.template = template;
		this.json = json;
		this.waitTimeout = waitTimeout;
		this.beanFactory = beanFactory;
		List<OperationSource> all = new ArrayList<>();
		all.add(new IdempotentOperationSource());
		all.addAll(sources);
		this.sources = List.copyOf(all);
	}

	@Override
	public Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target)
				: invocation.getMethod().getDeclaringClass();
		Operation operation = this.operations
			.computeIfAbsent(new MethodClassKey(invocation.getMethod(), targetClass),
					(key) -> Optional.ofNullable(operation(invocation.getMethod(), targetClass)))
			.orElse(null);
		if (operation == null) {
			return invocation.proceed();
		}
		EvaluationContext context = operation.context(invocation.getArguments(), target, this.beanFactory);
		return this.template.execute(operation.call(context), invocation::proceed);
	}

	private Operation operation(Method method, Class<?> targetClass) {
		Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
		for (OperationSource source : this.sources) {
			Annotation annotation = source.find(specific);
			if (annotation == null) {
				annotation = source.find(method);
			}
			if (annotation == null) {
				continue;
			}
			String where = OperationSource.methodName(method, targetClass);
			try {
				return new Operation(specific, targetClass, source.definition(specific, targetClass, annotation), where,
						source.reportedMethod());
			}
			catch (IllegalArgumentException | ParseException ex) {
				throw new IllegalStateException(
						"@" + source.annotationType().getSimpleName() + " on " + where + ": " + ex.getMessage(), ex);
			}
		}
		return null;
	}

	/** One annotated method, ready to be called. */
	private final class Operation {

		private final Method method;

		private final Class<?> targetClass;

		private final String where;

		private final OperationDefinition definition;

		private final Class<?> returnType;

		private final ResultCodec<Object> codec;

		private final Duration waitTimeout;

		private final FailurePolicy failurePolicy;

		private final String reportedMethod;

		Operation(Method method, Class<?> targetClass, OperationDefinition definition, String where,
				String reportedMethod) {
			this.method = method;
			this.reportedMethod = reportedMethod;
			this.targetClass = targetClass;
			this.where = where;
			this.definition = definition;
			ResolvableType returnType = ResolvableType.forMethodReturnType(method, targetClass);
			this.returnType = (method.getReturnType() == void.class) ? Void.class
					: ClassUtils.resolvePrimitiveIfNecessary(method.getReturnType());
			this.codec = codec(returnType.getType());
			this.waitTimeout = definition.waitForRunning() ? IdempotentOperationInterceptor.this.waitTimeout
					: Duration.ZERO;
			this.failurePolicy = definition.failurePolicy()
				.apply(IdempotentOperationInterceptor.this.template.getDefaults().failurePolicy());
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
			String scope = text(this.definition.scope(), context, "scope");
			IdempotentCall<Object> call = IdempotentCall.of(scope, text(this.definition.key(), context, "key"), this.codec)
				.withWaitTimeout(this.waitTimeout)
				.withFailurePolicy(this.failurePolicy)
				.withReportedMethod(this.reportedMethod);
			if (this.definition.ttl() != null) {
				call = call.withTtl(this.definition.ttl());
			}
			if (this.definition.spentKeyRetention() != null) {
				call = call.withSpentKeyRetention(this.definition.spentKeyRetention());
			}
			if (this.definition.leaseTtl() != null) {
				call = call.withLeaseTtl(this.definition.leaseTtl());
			}
			if (this.definition.fingerprint() != null) {
				call = call.withFingerprint(fingerprint(this.definition.fingerprint(), context));
			}
			if (this.definition.reconcile() != null) {
				call = call.withReconciler(reconciler(this.definition.reconcile(), context));
			}
			return call;
		}

		private String text(OperationDefinition.Value value, EvaluationContext context, String what) {
			Object text = value.get(context);
			if (text == null || text.toString().isEmpty()) {
				throw new IllegalArgumentException("The " + what + " " + value + " of " + this.where + " evaluated to "
						+ ((text == null) ? "null" : "an empty string"));
			}
			return text.toString();
		}

		private String fingerprint(OperationDefinition.Value fingerprint, EvaluationContext context) {
			Object value = fingerprint.get(context);
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
				throw new IllegalArgumentException("The fingerprint " + fingerprint + " of " + this.where
						+ " gave a value that cannot be written as JSON: " + ex.getMessage(), ex);
			}
		}

		/** Evaluated only when a retry finds an unknown outcome, so lookups cost nothing otherwise. */
		private Reconciler<Object> reconciler(Expression reconcile, EvaluationContext context) {
			return () -> {
				Object found = reconcile.getValue(context);
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
					throw new IllegalStateException("The reconcile expression of void method " + this.where
							+ " must answer true or false, not " + found.getClass().getName());
				}
				if (!this.returnType.isInstance(found)) {
					throw new IllegalStateException("The reconcile expression of " + this.where + " answered a "
							+ found.getClass().getName() + ", not a " + this.returnType.getName());
				}
				return Reconciliation.found(found);
			};
		}

	}

}
