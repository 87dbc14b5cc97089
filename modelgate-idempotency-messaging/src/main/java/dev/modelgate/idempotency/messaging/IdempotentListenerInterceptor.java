package dev.modelgate.idempotency.messaging;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * The advice of {@code @IdempotentListener} methods: the {@code @IdempotentOperation} interceptor (with
 * an {@link IdempotentListenerSource}), whose refusals the broker of the message turns into its own
 * action ({@link InboundMessage#refusals()}).
 */
public class IdempotentListenerInterceptor implements MethodInterceptor {

	private final MethodInterceptor operations;

	/** @param operations the {@code @IdempotentOperation} interceptor, which reads {@code @IdempotentListener} */
	public IdempotentListenerInterceptor(MethodInterceptor operations) {
		this.operations = operations;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		try {
			return this.operations.invoke(invocation);
		}
		catch (RuntimeException ex) {
			InboundMessage message = InboundMessages.find();
			if (message == null) {
				throw ex;
			}
			return message.refusals().handle(ex);
		}
	}

}
