package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What ending an attempt means for the listeners and the log, whichever way the store was asked
 * ({@link BlockingSettlement} blocks, {@link AsyncSettlement} does not): the same decisions and the same WARN
 * texts. Each method takes the store's answer or its failure and returns what the caller reports
 * back.
 */
final class SettlementReports {

	private static final Logger logger = LoggerFactory.getLogger(BlockingSettlement.class);

	private final DecisionReporter reporter;

	private final String method;

	private final String route;

	private final String scope;

	SettlementReports(DecisionReporter reporter, String method, String route, String scope) {
		this.reporter = reporter;
		this.method = method;
		this.route = route;
		this.scope = scope;
	}

	String scope() {
		return this.scope;
	}

	/** {@return whether the outcome was recorded} */
	boolean recorded(@Nullable Boolean accepted, @Nullable Throwable failure) {
		if (failure != null) {
			logger.warn("Could not record the outcome for idempotency scope {}; the lease will run out on its own: {}",
					this.scope, describe(failure));
			decide(IdempotencyOutcome.COMPLETE_FAILED);
			return false;
		}
		if (Boolean.TRUE.equals(accepted)) {
			decide(IdempotencyOutcome.RECORDED);
			return true;
		}
		logger.warn("Idempotency lease for scope {} was lost before completion (another attempt took over); "
				+ "the outcome is not recorded", this.scope);
		decide(IdempotencyOutcome.LEASE_LOST);
		return false;
	}

	/** {@return whether the stream was recorded as complete} */
	boolean streamRecorded(@Nullable Boolean accepted, @Nullable Throwable failure) {
		if (failure != null) {
			logger.warn("Could not complete the stream of idempotency scope {}; the lease will run out on its own: {}",
					this.scope, describe(failure));
			decide(IdempotencyOutcome.COMPLETE_FAILED);
			return false;
		}
		if (Boolean.TRUE.equals(accepted)) {
			decide(IdempotencyOutcome.STREAM_RECORDED);
			return true;
		}
		logger.warn("Idempotency lease for scope {} was lost before its stream ended (another attempt took "
				+ "over); the stream is not recorded", this.scope);
		decide(IdempotencyOutcome.LEASE_LOST);
		return false;
	}

	/** Logs why a key is about to be released, when the reason deserves a WARN. */
	void releasing(@Nullable String warning) {
		if (warning != null) {
			logger.warn("Idempotency scope {} released: {}", this.scope, warning);
		}
	}

	/** {@return whether the record was deleted} */
	boolean released(@Nullable Boolean released, @Nullable Throwable failure) {
		if (failure != null) {
			logger.warn("Could not release idempotency scope {}; the lease will run out on its own: {}", this.scope,
					describe(failure));
			decide(IdempotencyOutcome.RELEASE_FAILED);
			return false;
		}
		boolean deleted = Boolean.TRUE.equals(released);
		decide(deleted ? IdempotencyOutcome.RELEASED : IdempotencyOutcome.LEASE_LOST);
		return deleted;
	}

	void abandoned(String warning) {
		logger.warn("Idempotency scope {} abandoned, its lease will run out: {}", this.scope, warning);
	}

	private void decide(IdempotencyOutcome outcome) {
		this.reporter.decide(outcome, this.method, this.route, this.scope);
	}

	/** {@return what a failure of a store call says, unwrapped from the future's exception} */
	static String describe(Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		return (cause instanceof IdempotencyStoreException storeFailure) ? storeFailure.describe() : cause.toString();
	}

}
