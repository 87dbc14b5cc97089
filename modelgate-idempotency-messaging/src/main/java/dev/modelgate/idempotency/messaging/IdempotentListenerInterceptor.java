package dev.modelgate.idempotency.messaging;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;

/**
 * The advice of {@code @IdempotentListener} methods: the {@code @IdempotentOperation} interceptor (with
 * an {@link IdempotentListenerSource}), whose refusals the broker of the message turns into its own
 * action ({@link InboundMessage#refusals()}). A message whose work was applied but whose result was not
 * recorded (the transaction committed, then the consumer failed before the record completed) is
 * acknowledged without running: there is nothing to redo, and no reply to send.
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
		catch (IdempotencyResultUnavailableException ex) {
			// The listener's work is done (the transactional inbox marked it applied with its commit) and
			// only its return value is lost: the message is acknowledged, without a reply.
			return null;
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
