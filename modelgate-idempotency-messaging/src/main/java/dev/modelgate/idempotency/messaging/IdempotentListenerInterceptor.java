package dev.modelgate.idempotency.messaging;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;

/**
 * The advice of {@code @IdempotentListener} methods: the {@code @IdempotentOperation} interceptor (with
 * an {@link IdempotentListenerSource}), whose refusals the broker of the message turns into its own
 * action ({@link InboundMessage#refusals()}). A message whose work was applied but whose result was not
 * recorded (the transaction committed, then the consumer failed before the record completed) is
 * acknowledged without running: there is nothing to redo, and no reply to send. Each duplicate
 * acknowledged without running is logged at DEBUG with the SHA-256 of its key, never the key.
 */
public class IdempotentListenerInterceptor implements MethodInterceptor {

	private static final Logger logger = LoggerFactory.getLogger(IdempotentListenerInterceptor.class);

	private final MethodInterceptor operations;

	/** @param operations the {@code @IdempotentOperation} interceptor, which reads {@code @IdempotentListener} */
	public IdempotentListenerInterceptor(MethodInterceptor operations) {
		this.operations = operations;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Run run = new Run(invocation);
		try {
			Object result = this.operations.invoke(run);
			if (!run.proceeded) {
				skipped(invocation.getMethod(), "its recorded result");
			}
			return result;
		}
		catch (IdempotencyResultUnavailableException ex) {
			// The listener's work is done (the transactional inbox marked it applied with its commit) and
			// only its return value is lost: the message is acknowledged, without a reply.
			skipped(invocation.getMethod(), "no result (applied in the listener's transaction)");
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

	private static void skipped(Method method, String answer) {
		if (logger.isDebugEnabled()) {
			InboundMessage message = InboundMessages.find();
			String key = InboundMessages.key();
			logger.debug("Duplicate message acknowledged without running {}.{} for {}, with {}: key sha256={}",
					method.getDeclaringClass().getName(), method.getName(),
					(message != null) ? message.listener() : "-", answer, (key != null) ? sha256(key) : "-");
		}
	}

	private static String sha256(String key) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/** The listener's invocation, which knows whether the listener ran. */
	private static final class Run implements MethodInvocation {

		private final MethodInvocation invocation;

		private boolean proceeded;

		Run(MethodInvocation invocation) {
			this.invocation = invocation;
		}

		@Override
		public Method getMethod() {
			return this.invocation.getMethod();
		}

		@Override
		public Object[] getArguments() {
			return this.invocation.getArguments();
		}

		@Override
		public @Nullable Object proceed() throws Throwable {
			this.proceeded = true;
			return this.invocation.proceed();
		}

		@Override
		public @Nullable Object getThis() {
			return this.invocation.getThis();
		}

		@Override
		public AccessibleObject getStaticPart() {
			return this.invocation.getStaticPart();
		}

	}

}
