package dev.modelgate.idempotency.ai;

import dev.modelgate.idempotency.core.Reconciliation;

/**
 * Finds out whether a tool call whose outcome is unknown (a failure in
 * {@link IdempotentTool#unknownOn()}: the request went out, the answer did not come back) took effect,
 * by looking it up downstream, typically by the call's key that the tool sent along
 * ({@link IdempotentToolCallingManager#TOOL_CALL_KEY}). A re-run that reaches such a call asks it:
 * found, the result it returns is recorded and goes to the model, and the tool does not run; not found,
 * the tool runs. Give one to a tool with {@link IdempotentToolPolicy#reconciling}.
 */
@FunctionalInterface
public interface ToolReconciler {

	/**
	 * @param toolCallKey the key of the call, as the tool got it in its context
	 * @param arguments the arguments of the call, as the model gave them on this run
	 * @return the tool's result for the model if the call took effect, or not found; say "not found" only
	 * when sure, or the tool runs a second time
	 */
	Reconciliation<String> reconcile(String toolCallKey, String arguments);

}
