package dev.modelgate.idempotency.messaging;

import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.core.IdempotencyKeySpentException;
import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;

/**
 * The advice of {@code @IdempotentListener} methods: the {@code @IdempotentOperation} interceptor (with
 * an {@link IdempotentListenerSource}), whose refusals the broker of the message turns into its own
 * action ({@link InboundMessage#refusals()}). A message whose work was applied but whose result was not
 * recorded (the transaction committed, then the consumer failed before the record completed) is
 * acknowledged without running: there is nothing to redo, and no reply to send. Each duplicate
 * acknowledged without running is logged at DEBUG with the SHA-256 of its key, never the key; a
 * duplicate whose key runs elsewhere, at INFO in one line, since the broker brings it back.
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
		InboundBatch batch = InboundMessages.batch();
		if (batch != null) {
			return new BatchRun(invocation, batch).run();
		}
		Run run = new Run(invocation, invocation::proceed);
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
		catch (IdempotencyKeySpentException ex) {
			// A redelivery after the result expired, within the spent-key retention: the work ran.
			skipped(invocation.getMethod(), "no result (its key is spent)");
			return null;
		}
		catch (RuntimeException ex) {
			InboundMessage message = InboundMessages.find();
			if (message == null) {
				throw ex;
			}
			if (ex instanceof IdempotencyInProgressException) {
				String key = InboundMessages.key();
				logger.info("Duplicate message handed back to the broker: its key runs elsewhere ({}.{} for {}, key sha256={})",
						invocation.getMethod().getDeclaringClass().getName(), invocation.getMethod().getName(),
						message.listener(), (key != null) ? sha256(key) : "-");
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

	/**
	 * A batch listener's call: the key of each message is decided in turn, each holding its key around
	 * the next, and the listener runs once, with the messages that were acquired, when all are decided.
	 * A completed duplicate is left out of the lists the listener gets; a batch of duplicates only does
	 * not run it. The messages it ran with complete together when it returns and are released together
	 * when it throws. A message refused (in progress elsewhere, key reused, no key) stops the batch
	 * there: the listener runs with the messages before it, they complete, and the container is told
	 * which message failed, so that its error handler commits what came before and retries or
	 * dead-letters from that message on.
	 */
	private final class BatchRun {

		private final MethodInvocation invocation;

		private final InboundBatch batch;

		private final List<Integer> acquired = new ArrayList<>();

		private @Nullable RuntimeException stopped;

		private boolean ran;

		BatchRun(MethodInvocation invocation, InboundBatch batch) {
			this.invocation = invocation;
			this.batch = batch;
		}

		@Nullable Object run() throws Throwable {
			Object result = decide(0);
			if (this.stopped != null) {
				throw this.stopped;
			}
			return result;
		}

		private @Nullable Object decide(int index) throws Throwable {
			if (index == this.batch.messages().size()) {
				return listener();
			}
			InboundMessages.deciding(this.batch.messages().get(index));
			Run run = new Run(this.invocation, () -> {
				this.acquired.add(index);
				return decide(index + 1);
			});
			try {
				Object result = IdempotentListenerInterceptor.this.operations.invoke(run);
				if (run.proceeded) {
					return result;
				}
				skipped(this.invocation.getMethod(), "its recorded result");
			}
			catch (IdempotencyResultUnavailableException ex) {
				if (run.proceeded) {
					throw ex;
				}
				skipped(this.invocation.getMethod(), "no result (applied in the listener's transaction)");
			}
			catch (IdempotencyKeySpentException ex) {
				if (run.proceeded) {
					throw ex;
				}
				skipped(this.invocation.getMethod(), "no result (its key is spent)");
			}
			catch (RuntimeException ex) {
				if (run.proceeded) {
					throw ex;
				}
				// This message is refused: the ones before it run now, and the container hears where the batch stopped.
				Object result = listener();
				this.stopped = this.batch.failedAt().apply(ex, index);
				return result;
			}
			return decide(index + 1);
		}

		/** Runs the listener once, with the acquired messages only; not at all when there are none. */
		private @Nullable Object listener() throws Throwable {
			if (this.ran || this.acquired.isEmpty()) {
				return null;
			}
			this.ran = true;
			Object[] arguments = this.invocation.getArguments();
			int size = this.batch.messages().size();
			for (int i = 0; i < arguments.length; i++) {
				if (arguments[i] instanceof List<?> list && list.size() == size) {
					List<Object> kept = new ArrayList<>(this.acquired.size());
					this.acquired.forEach((index) -> kept.add(list.get(index)));
					arguments[i] = kept;
				}
			}
			return this.invocation.proceed();
		}

	}

	/** The listener's invocation, which knows whether the listener ran. */
	private static final class Run implements MethodInvocation {

		private final MethodInvocation invocation;

		private final Proceed proceed;

		private boolean proceeded;

		Run(MethodInvocation invocation, Proceed proceed) {
			this.invocation = invocation;
			this.proceed = proceed;
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
			return this.proceed.proceed();
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

	/** What the listener's advice calls to go on: the listener, or the next message of a batch. */
	@FunctionalInterface
	private interface Proceed {

		@Nullable Object proceed() throws Throwable;

	}

}
