package dev.modelgate.idempotency.operation;

import java.lang.annotation.Annotation;
import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.Pointcut;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.util.function.SingletonSupplier;

import dev.modelgate.idempotency.IdempotentOperation;

/**
 * Proxies beans with {@link IdempotentOperation @IdempotentOperation} methods, or adds the advice to
 * the proxy they already have. Like Spring's {@code MethodValidationPostProcessor} it needs no
 * auto-proxy creator, so the annotation works whatever {@code spring.aop.*} says.
 *
 * <p>The advice goes in front of the proxy's other advisors, so that it runs outside
 * {@code @Transactional}: the attempt is then bound to the thread when the transaction commits, and
 * with the JDBC store the record is marked applied in it. The interceptor is looked up on the first
 * call, so that creating this post-processor early does not create the store early.
 */
@SuppressWarnings("serial")
public class IdempotentOperationPostProcessor extends AbstractBeanFactoryAwareAdvisingPostProcessor {

	/** @param interceptor supplies the advice on the first call */
	public IdempotentOperationPostProcessor(Supplier<? extends MethodInterceptor> interceptor) {
		this(interceptor, IdempotentOperation.class);
	}

	/**
	 * @param interceptor supplies the advice on the first call
	 * @param annotation the method annotation whose beans are advised (one an {@link OperationSource} of
	 * the interceptor reads)
	 */
	public IdempotentOperationPostProcessor(Supplier<? extends MethodInterceptor> interceptor,
			Class<? extends Annotation> annotation) {
		this(interceptor, new AnnotationMatchingPointcut(null, annotation, true));
	}

	/**
	 * @param interceptor supplies the advice on the first call
	 * @param pointcut the methods advised (those an {@link OperationSource} of the interceptor finds)
	 */
	public IdempotentOperationPostProcessor(Supplier<? extends MethodInterceptor> interceptor, Pointcut pointcut) {
		Supplier<MethodInterceptor> resolved = SingletonSupplier.of(interceptor::get);
		MethodInterceptor lazy = (invocation) -> resolved.get().invoke(invocation);
		this.advisor = new DefaultPointcutAdvisor(pointcut, lazy);
		setBeforeExistingAdvisors(true);
	}

}
