package dev.modelgate.idempotency.operation;

import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;

import dev.modelgate.idempotency.core.FailurePolicy;

/**
 * What one annotated method asks of {@link IdempotentOperationInterceptor}: where its key, scope and
 * fingerprint come from, and its durations and failure policy. {@code @IdempotentOperation} reads them
 * from the method's arguments; a message listener reads them from the message being handled.
 *
 * @param scope the key space of a call
 * @param key the key of a call; it must not be {@code null} or empty
 * @param fingerprint what makes two calls with one key the same, or {@code null} for the key alone
 * @param reconcile SpEL run instead of the method after an unknown outcome, or {@code null}
 * @param ttl how long the outcome is kept, or {@code null} for the template's default
 * @param leaseTtl how long a call holds its key without a heartbeat, or {@code null} for the default
 * @param waitForRunning whether a duplicate waits for a running call's result instead of being refused
 * @param failurePolicy adjusts the template's default failure policy
 * @param spentKeyRetention how long the key stays spent after the outcome expired, or {@code null} for
 * the template's default
 */
public record OperationDefinition(Value scope, Value key, @Nullable Value fingerprint, @Nullable Expression reconcile,
		@Nullable Duration ttl, @Nullable Duration leaseTtl, boolean waitForRunning,
		UnaryOperator<FailurePolicy> failurePolicy, @Nullable Duration spentKeyRetention) {

	/**
	 * A definition that leaves the spent-key retention to the template's default.
	 * @param scope the key space of a call
	 * @param key the key of a call
	 * @param fingerprint what makes two calls with one key the same, or {@code null}
	 * @param reconcile SpEL run instead of the method after an unknown outcome, or {@code null}
	 * @param ttl how long the outcome is kept, or {@code null} for the template's default
	 * @param leaseTtl how long a call holds its key without a heartbeat, or {@code null}
	 * @param waitForRunning whether a duplicate waits for a running call's result
	 * @param failurePolicy adjusts the template's default failure policy
	 */
	public OperationDefinition(Value scope, Value key, @Nullable Value fingerprint, @Nullable Expression reconcile,
			@Nullable Duration ttl, @Nullable Duration leaseTtl, boolean waitForRunning,
			UnaryOperator<FailurePolicy> failurePolicy) {
		this(scope, key, fingerprint, reconcile, ttl, leaseTtl, waitForRunning, failurePolicy, null);
	}

	public OperationDefinition {
		Objects.requireNonNull(scope, "scope must not be null");
		Objects.requireNonNull(key, "key must not be null");
		Objects.requireNonNull(failurePolicy, "failurePolicy must not be null");
	}

	/**
	 * A value of a call, read from the evaluation context of its arguments. Its {@code toString()} names
	 * it in error messages ({@code expression '#orderId'}, {@code header 'Idempotency-Key'}).
	 */
	@FunctionalInterface
	public interface Value {

		/**
		 * @param context the call's arguments, bean and method, as SpEL sees them
		 * @return the value
		 */
		@Nullable Object get(EvaluationContext context);

		/**
		 * @param constant the value of every call
		 * @return a value that is always {@code constant}
		 */
		static Value of(String constant) {
			return new Value() {
				@Override
				public Object get(EvaluationContext context) {
					return constant;
				}

				@Override
				public String toString() {
					return "'" + constant + "'";
				}
			};
		}

		/**
		 * @param expression SpEL evaluated against the call
		 * @return its value for each call
		 */
		static Value of(Expression expression) {
			return new Value() {
				@Override
				public @Nullable Object get(EvaluationContext context) {
					return expression.getValue(context);
				}

				@Override
				public String toString() {
					return "expression '" + expression.getExpressionString() + "'";
				}
			};
		}

	}

}
