package dev.modelgate.idempotency.outbox;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs an event listener's side effect at most once per event key ({@link IdempotentEvent#idempotencyKey()}),
 * with the state machine of {@code @IdempotentOperation}: a delivery whose key completed returns without
 * running the method, so that Spring Modulith marks the publication completed instead of delivering it
 * again. Put it beside {@code @ApplicationModuleListener} (or {@code @TransactionalEventListener} and
 * {@code @Transactional}):
 *
 * <pre class="code">
 * &#64;ApplicationModuleListener
 * &#64;IdempotentEventListener
 * void on(MailRequested event) { mailer.send(event.idempotencyKey(), event.to(), event.subject()); }
 * </pre>
 *
 * <p>The method's first {@link IdempotentEvent} parameter gives the key. The scope is {@link #scope()},
 * else the listener method, so two listeners of one event each run once. The advice runs outside the
 * listener's transaction and inside {@code @Async}: with the JDBC store the record is marked applied in
 * the listener's transaction, so a listener whose effect is a write to that database runs at most once
 * even when the process dies before Spring Modulith marks the publication completed.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotentEventListener {

	/** Name of the key space; empty means the listener's class and method name. */
	String scope() default "";

	/** How long the outcome is kept; empty means {@code modelgate.idempotency.ttl}. */
	String ttl() default "";

	/** How long a run holds its key without a heartbeat; empty means {@code modelgate.idempotency.lease-ttl}. */
	String leaseTtl() default "";

	/** Failures that release the key so that a resubmission runs the listener again (all, by default). */
	Class<? extends Throwable>[] retryOn() default {};

	/** Failures that are final: recorded, and a resubmission fails at once ({@code RecordedFailureException}) without running. */
	Class<? extends Throwable>[] recordOn() default {};

}
