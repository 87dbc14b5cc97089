package dev.modelgate.idempotency.ai;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.FailurePolicy;

/**
 * How the calls of one protected tool run: what a re-run with other arguments gets, and which failures
 * are released, recorded or unknown.
 *
 * @param onArgumentMismatch what a re-run with other arguments gets
 * @param failurePolicy which failures are released, recorded or unknown; {@code null} for the
 * template's default
 * @param reconciler settles a call whose outcome is unknown; {@code null}: a re-run that meets one gets
 * {@code OutcomeUnknownException}
 */
public record ToolProtection(ArgumentMismatch onArgumentMismatch, @Nullable FailurePolicy failurePolicy,
		@Nullable ToolReconciler reconciler) {

	/**
	 * Checks that {@code onArgumentMismatch} is given.
	 * @param onArgumentMismatch what a re-run with other arguments gets
	 * @param failurePolicy which failures are released, recorded or unknown, or {@code null}
	 * @param reconciler settles a call whose outcome is unknown, or {@code null}
	 */
	public ToolProtection {
		Objects.requireNonNull(onArgumentMismatch, "onArgumentMismatch must not be null");
	}

	/** {@return the recorded result stands for other arguments, failures as the template's default says} */
	public static ToolProtection standard() {
		return new ToolProtection(ArgumentMismatch.REPLAY, null, null);
	}

	/**
	 * {@return the protection an annotation asks for}
	 * @param annotation the tool method's annotation
	 */
	public static ToolProtection of(IdempotentTool annotation) {
		FailurePolicy policy = null;
		if (annotation.recordOn().length > 0 || annotation.unknownOn().length > 0) {
			policy = FailurePolicy.standard().recordOn(annotation.recordOn()).unknownOn(annotation.unknownOn());
		}
		return new ToolProtection(annotation.onArgumentMismatch(), policy, null);
	}

	/**
	 * {@return a copy of this protection with a reconciler}
	 * @param reconciler settles a call whose outcome is unknown
	 */
	public ToolProtection withReconciler(ToolReconciler reconciler) {
		return new ToolProtection(this.onArgumentMismatch, this.failurePolicy,
				Objects.requireNonNull(reconciler, "reconciler must not be null"));
	}

}
