package dev.modelgate.idempotency.operation;

import java.lang.reflect.Method;

/**
 * The root object of {@code @IdempotentOperation} expressions: {@code #root.method},
 * {@code #root.args}, {@code #root.target} and {@code #root.targetClass}.
 */
public final class OperationExpressionRoot {

	private final Method method;

	private final Object[] args;

	private final Object target;

	private final Class<?> targetClass;

	OperationExpressionRoot(Method method, Object[] args, Object target, Class<?> targetClass) {
		this.method = method;
		this.args = args;
		this.target = target;
		this.targetClass = targetClass;
	}

	public Method getMethod() {
		return this.method;
	}

	public Object[] getArgs() {
		return this.args;
	}

	public Object getTarget() {
		return this.target;
	}

	public Class<?> getTargetClass() {
		return this.targetClass;
	}

}
