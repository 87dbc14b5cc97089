package dev.modelgate.idempotency.operation;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.core.IdempotencyDecision;

/**
 * Reads one annotation into the {@link OperationDefinition} of the methods that carry it, for
 * {@link IdempotentOperationInterceptor}.
 */
public interface OperationSource {

	/** {@return the annotation this source reads} */
	Class<? extends Annotation> annotationType();

	/**
	 * @param method a method of a bean
	 * @return what makes it an operation, usually its annotation of {@link #annotationType()}, or
	 * {@code null} when it is not one
	 */
	default @Nullable Annotation find(Method method) {
		return AnnotatedElementUtils.findMergedAnnotation(method, annotationType());
	}

	/**
	 * @param method the most specific method of the bean's class
	 * @param targetClass the bean's class
	 * @param annotation what {@link #find(Method)} found
	 * @return what a call of the method needs
	 * @throws IllegalArgumentException when the annotation cannot work, with a message that says why
	 */
	OperationDefinition definition(Method method, Class<?> targetClass, Annotation annotation);

	/**
	 * @return the method the decisions of these operations are reported with (their route is the scope):
	 * {@link IdempotencyDecision#OPERATION} unless the source says otherwise
	 */
	default String reportedMethod() {
		return IdempotencyDecision.OPERATION;
	}

	/**
	 * @param method the annotated method
	 * @param targetClass the bean's class
	 * @return the class and method name, the default scope of a method
	 */
	static String methodName(Method method, Class<?> targetClass) {
		return ClassUtils.getUserClass(targetClass).getName() + "." + method.getName();
	}

}
