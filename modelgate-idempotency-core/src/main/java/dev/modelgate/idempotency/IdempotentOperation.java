package dev.modelgate.idempotency;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a method of a Spring bean at most once per key, with the state machine of
 * {@link Idempotent}, for work that is not an HTTP request: an agent's tool call, a message
 * listener that sees duplicate deliveries, a scheduled job's side effect. A call whose key already
 * completed returns the recorded result (or throws the recorded failure) without running the method.
 *
 * <pre class="code">
 * &#64;IdempotentOperation(key = "#toolKey", fingerprint = "#mail", reconcile = "&#64;mailApi.findSent(#toolKey)")
 * public SentMail send(String toolKey, Mail mail) { ... }
 * </pre>
 *
 * <p>Expressions are SpEL, evaluated against the call: arguments by name ({@code #toolKey}, needs
 * {@code -parameters}, which Spring Boot's build plugins set) or position ({@code #p0}, {@code #a0}),
 * beans as {@code @name}, and {@code #root.method}, {@code #root.args}, {@code #root.target}. The
 * result is kept as JSON of the method's declared return type, written and read by the application's
 * {@code JsonMapper} (replays return an equal copy); {@code void} methods record that they ran.
 * Asynchronous return types ({@code CompletionStage}, {@code Future}, reactive types) are refused.
 *
 * <p>The method is advised through a Spring proxy, so calls from inside the same bean are not. The
 * idempotency advice runs outside any {@code @Transactional} advice on the same method, so that with
 * the JDBC store the record is marked applied in that transaction. Failures of the store before the
 * method runs throw {@code IdempotencyStoreException}; refusals throw the exceptions of
 * {@code dev.modelgate.idempotency.core} ({@code IdempotencyKeyReusedException},
 * {@code IdempotencyInProgressException}, ...).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotentOperation {

	/** SpEL for the key, the same on every retry; it must not evaluate to {@code null} or empty. */
	String key();

	/**
	 * SpEL for what makes two calls with one key the same request; a retry whose fingerprint differs
	 * is refused with {@code IdempotencyKeyReusedException}. A string is used as is, anything else as
	 * JSON with properties sorted. Empty: the key alone identifies the call.
	 */
	String fingerprint() default "";

	/**
	 * Name of the key space; empty means the bean's class name and the method name
	 * ({@code com.example.Mailer.send}). Overloads share it unless they name their own; methods
	 * that name the same scope share their keys.
	 */
	String scope() default "";

	/** How long the outcome is kept for replay; empty means {@code modelgate.idempotency.ttl}. */
	String ttl() default "";

	/**
	 * How long, once the outcome has expired after {@link #ttl()}, a call with the key is still refused
	 * with {@link dev.modelgate.idempotency.core.IdempotencyKeySpentException} instead of running
	 * again; empty means {@code modelgate.idempotency.spent-key-retention}, {@code "0s"} turns it off
	 * for this method.
	 */
	String spentKeyRetention() default "";

	/**
	 * How long a call holds its key without a heartbeat; empty means
	 * {@code modelgate.idempotency.lease-ttl}.
	 */
	String leaseTtl() default "";

	/**
	 * What a duplicate call gets while the first one runs: {@code REJECT} throws
	 * {@code IdempotencyInProgressException} at once, {@code WAIT} waits up to
	 * {@code modelgate.idempotency.wait-timeout} for the first call's result.
	 */
	Idempotent.InProgress inProgress() default Idempotent.InProgress.REJECT;

	/**
	 * SpEL that looks downstream for the effect of a call whose outcome was recorded as unknown, run
	 * by a retry instead of the method. It answers {@code null} or an empty {@code Optional} when the
	 * effect did not happen (the method then runs), else the result to record, as an instance of the
	 * return type or an {@code Optional} of one ({@code true}/{@code false} for {@code void} methods).
	 * Empty: retries after an unknown outcome throw {@code OutcomeUnknownException}.
	 */
	String reconcile() default "";

	/** Failures that release the key so that a retry runs the method again (all, by default). */
	Class<? extends Throwable>[] retryOn() default {};

	/** Failures that are final: recorded, and replayed to retries as {@code RecordedFailureException}. */
	Class<? extends Throwable>[] recordOn() default {};

	/**
	 * Failures after which the effect may have happened (a timeout after the request was sent):
	 * recorded as unknown, and retries ask {@link #reconcile()}. {@code OutcomeUnknownException} always
	 * counts as one.
	 */
	Class<? extends Throwable>[] unknownOn() default {};

}
