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

	/** {@return the annotated method} */
	public Method getMethod() {
		return this.method;
	}

	/** {@return the call's arguments} */
	public Object[] getArgs() {
		return this.args;
	}

	/** {@return the bean whose method is called} */
	public Object getTarget() {
		return this.target;
	}

	/** {@return the class of the bean whose method is called} */
	public Class<?> getTargetClass() {
		return this.targetClass;
	}

}
