package dev.modelgate.idempotency.outbox;

import java.util.function.Supplier;

import org.aopalliance.aop.Advice;
import org.aopalliance.intercept.MethodInterceptor;

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.core.Ordered;
import org.springframework.util.function.SingletonSupplier;

/**
 * Advises {@link IdempotentEventListener @IdempotentEventListener} methods with the
 * {@code @IdempotentOperation} interceptor (which must read them with an {@link IdempotentEventListenerSource}),
 * through the application's auto-proxy creator, as Spring Modulith's own completion advice is.
 *
 * <p>The order puts it between two other advices of such a listener: inside Spring Modulith's, which
 * marks the publication completed when the method returns (at {@code HIGHEST_PRECEDENCE + 10}), so that
 * a delivery the record answers without running the method still completes its publication; and
 * outside {@code @Transactional} (lowest precedence), so that with the JDBC store the record is marked
 * applied in the listener's transaction. {@code @Async} is added by its own post-processor in front of
 * all of them: the key is taken on the thread the listener runs on.
 */
@SuppressWarnings("serial")
public class IdempotentEventListenerAdvisor extends AbstractPointcutAdvisor {

	/** Just inside Spring Modulith's completion advice ({@code HIGHEST_PRECEDENCE + 10}). */
	public static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 20;

	private final Pointcut pointcut = new AnnotationMatchingPointcut(null, IdempotentEventListener.class, true);

	private final transient MethodInterceptor advice;

	/** @param interceptor supplies the {@code @IdempotentOperation} interceptor on the first call */
	public IdempotentEventListenerAdvisor(Supplier<? extends MethodInterceptor> interceptor) {
		Supplier<MethodInterceptor> resolved = SingletonSupplier.of(interceptor::get);
		this.advice = (invocation) -> resolved.get().invoke(invocation);
		setOrder(ORDER);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

	@Override
	public Advice getAdvice() {
		return this.advice;
	}

}
