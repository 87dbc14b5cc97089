package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.Hashing;
import java.time.Duration;
import java.util.Objects;

/**
 * One piece of work to run under an idempotency key with {@link IdempotencyTemplate}: which
 * operation, which key, how its result is kept, and optionally what identifies "the same request",
 * how long things last, which failures are final, and how to reconcile an unknown outcome.
 *
 * <pre class="code">
 * IdempotentCall&lt;String&gt; call = IdempotentCall.of("mail.send", toolKey, ResultCodec.utf8())
 *     .withFingerprint(to + "\n" + subject)
 *     .withReconciler(() -&gt; Reconciliation.of(mailer.findSent(toolKey)));
 * String messageId = template.execute(call, () -&gt; mailer.send(toolKey, to, subject, text));
 * </pre>
 *
 * <p>The scope of the call is the SHA-256 of the operation name and the key, hashed apart from HTTP
 * scopes; the key itself never reaches the store or the logs. Instances are immutable: each
 * {@code with} method returns a new call. Unset durations and policy come from the template's
 * {@link IdempotencyTemplate.Defaults}.
 *
 * @param <T> the type of the work's result
 */
public final class IdempotentCall<T> {

	private final String operation;

	private final String key;

	private final ResultCodec<T> codec;

	private final String fingerprint;

	private final Duration ttl;

	private final Duration leaseTtl;

	private final Duration waitTimeout;

	private final FailurePolicy failurePolicy;

	private final Reconciler<T> reconciler;

	private final String reportedMethod;

	private final Duration spentKeyRetention;

	private IdempotentCall(String operation, String key, ResultCodec<T> codec, String fingerprint, Duration ttl,
			Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy, Reconciler<T> reconciler,
			String reportedMethod) {
		this(operation, key, codec, fingerprint, ttl, leaseTtl, waitTimeout, failurePolicy, reconciler, reportedMethod,
				null);
	}

	private IdempotentCall(String operation, String key, ResultCodec<T> codec, String fingerprint, Duration ttl,
			Duration leaseTtl, Duration waitTimeout, FailurePolicy failurePolicy, Reconciler<T> reconciler,
			String reportedMethod, Duration spentKeyRetention) {
		this.spentKeyRetention = spentKeyRetention;
		this.operation = operation;
		this.key = key;
		this.codec = codec;
		this.fingerprint = fingerprint;
		this.ttl = ttl;
		this.leaseTtl = leaseTtl;
		this.waitTimeout = waitTimeout;
		this.failurePolicy = failurePolicy;
		this.reconciler = reconciler;
		this.reportedMethod = reportedMethod;
	}

	/**
	 * A call with no fingerprint (the key alone identifies the request), the template's defaults, and
	 * no reconciler.
	 * @param operation the key space, for example {@code "mail.send"}; the same key under another
	 * operation is another call
	 * @param key the idempotency key, the same on every retry
	 * @param codec keeps the result for replay
	 * @param <T> the type of the work's result
	 * @return the call
	 */
	public static <T> IdempotentCall<T> of(String operation, String key, ResultCodec<T> codec) {
		requireText(operation, "operation");
		requireText(key, "key");
		Objects.requireNonNull(codec, "codec must not be null");
		return new IdempotentCall<>(operation, key, codec, null, null, null, null, null, null,
				IdempotencyDecision.OPERATION);
	}

	/**
	 * What makes two calls with this key "the same request" (for example the recipient and text of a
	 * mail). A retry whose fingerprint differs is refused with {@link IdempotencyKeyReusedException}.
	 * Only its SHA-256 is stored.
	 * @param fingerprint what identifies the request, in any stable form
	 * @return a copy of this call with the fingerprint
	 */
	public IdempotentCall<T> withFingerprint(String fingerprint) {
		return new IdempotentCall<>(this.operation, this.key, this.codec, fingerprint, this.ttl, this.leaseTtl,
				this.waitTimeout, this.failurePolicy, this.reconciler, this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * How long the outcome is kept for replay.
	 * @param ttl the retention
	 * @return a copy of this call with the retention
	 */
	public IdempotentCall<T> withTtl(Duration ttl) {
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, positive(ttl, "ttl"),
				this.leaseTtl, this.waitTimeout, this.failurePolicy, this.reconciler, this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * How long the attempt holds the key without a heartbeat (renewed every third of it while the
	 * work runs).
	 * @param leaseTtl the lease
	 * @return a copy of this call with the lease
	 */
	public IdempotentCall<T> withLeaseTtl(Duration leaseTtl) {
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl,
				positive(leaseTtl, "leaseTtl"), this.waitTimeout, this.failurePolicy, this.reconciler, this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * How long to wait for a running duplicate to finish and replay its outcome; zero (the default)
	 * answers {@link IdempotencyInProgressException} at once.
	 * @param waitTimeout the longest wait
	 * @return a copy of this call with the wait
	 */
	public IdempotentCall<T> withWaitTimeout(Duration waitTimeout) {
		Objects.requireNonNull(waitTimeout, "waitTimeout must not be null");
		if (waitTimeout.isNegative()) {
			throw new IllegalArgumentException("waitTimeout must not be negative, was " + waitTimeout);
		}
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl, this.leaseTtl,
				waitTimeout, this.failurePolicy, this.reconciler, this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * Which failures are retryable, recorded or unknown.
	 * @param failurePolicy the policy
	 * @return a copy of this call with the policy
	 */
	public IdempotentCall<T> withFailurePolicy(FailurePolicy failurePolicy) {
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl, this.leaseTtl,
				this.waitTimeout, Objects.requireNonNull(failurePolicy, "failurePolicy must not be null"),
				this.reconciler, this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * How a retry finds out whether work recorded as unknown took effect. Without one, a retry after an
	 * unknown outcome gets {@link OutcomeUnknownException} and the work does not run again.
	 * @param reconciler looks the effect up downstream
	 * @return a copy of this call with the reconciler
	 */
	public IdempotentCall<T> withReconciler(Reconciler<T> reconciler) {
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl, this.leaseTtl,
				this.waitTimeout, this.failurePolicy, Objects.requireNonNull(reconciler, "reconciler must not be null"),
				this.reportedMethod, this.spentKeyRetention);
	}

	/**
	 * The {@link IdempotencyDecision#method() method} this call's decisions are reported with:
	 * {@link IdempotencyDecision#OPERATION} by default, {@link IdempotencyDecision#LISTENER} for a message
	 * listener's run. Metrics and logs tell the two apart by it, with the same tags as a request's.
	 * @param method the method of the reported decisions
	 * @return a copy of this call reported with that method
	 */
	public IdempotentCall<T> withReportedMethod(String method) {
		requireText(method, "method");
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl, this.leaseTtl,
				this.waitTimeout, this.failurePolicy, this.reconciler, method);
	}

	/** @return the key space */
	public String operation() {
		return this.operation;
	}

	/** @return the method of this call's reported decisions */
	public String reportedMethod() {
		return this.reportedMethod;
	}

	/** @return how the result is kept */
	public ResultCodec<T> codec() {
		return this.codec;
	}

	/** @return the reconciler, or {@code null} */
	public Reconciler<T> reconciler() {
		return this.reconciler;
	}

	/**
	 * This call with another spent-key retention: how long, after its {@code ttl}, a retry is still
	 * refused with {@link IdempotencyKeySpentException} instead of running the work again.
	 * @param retention the retention; zero for none (the key is free once the result expires)
	 * @return the call
	 */
	public IdempotentCall<T> withSpentKeyRetention(Duration retention) {
		if (retention.isNegative()) {
			throw new IllegalArgumentException("spentKeyRetention must not be negative, was " + retention);
		}
		return new IdempotentCall<>(this.operation, this.key, this.codec, this.fingerprint, this.ttl, this.leaseTtl,
				this.waitTimeout, this.failurePolicy, this.reconciler, this.reportedMethod, retention);
	}

	/** @return the spent-key retention, or {@code null} for the template's default */
	public Duration spentKeyRetention() {
		return this.spentKeyRetention;
	}

	/** @return the ttl, or {@code null} for the template's default */
	public Duration ttl() {
		return this.ttl;
	}

	/** @return the lease ttl, or {@code null} for the template's default */
	public Duration leaseTtl() {
		return this.leaseTtl;
	}

	/** @return the wait timeout, or {@code null} for the template's default */
	public Duration waitTimeout() {
		return this.waitTimeout;
	}

	/** @return the failure policy, or {@code null} for the template's default */
	public FailurePolicy failurePolicy() {
		return this.failurePolicy;
	}

	/**
	 * The hashed scope of the call's {@code round}: 0 for the first run, and one more for each
	 * unknown outcome that a retry had to settle (see {@link IdempotencyTemplate}).
	 */
	String scope(int round) {
		Hashing hashing = Hashing.sha256().tag('O').field(this.operation).field(this.key);
		if (round > 0) {
			hashing.field(Integer.toString(round));
		}
		return hashing.hex();
	}

	/** The hashed fingerprint the store compares. */
	String fingerprintHash() {
		return Hashing.sha256()
			.tag('F')
			.field(this.operation)
			.field((this.fingerprint != null) ? this.fingerprint : "")
			.hex();
	}

	private static void requireText(String value, String name) {
		if (value == null || value.isEmpty()) {
			throw new IllegalArgumentException(name + " must not be empty");
		}
	}

	private static Duration positive(Duration duration, String name) {
		Objects.requireNonNull(duration, name + " must not be null");
		if (duration.isNegative() || duration.isZero()) {
			throw new IllegalArgumentException(name + " must be positive, was " + duration);
		}
		return duration;
	}

	@Override
	public String toString() {
		return "IdempotentCall[operation=" + this.operation + ", key=redacted]";
	}

}
