package dev.modelgate.idempotency.ai;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.ToolCallback;

/**
 * Which tools {@link IdempotentToolCallingManager} protects, and how. A tool it does not protect runs
 * as it always did.
 */
@FunctionalInterface
public interface IdempotentToolPolicy {

	/**
	 * @param tool a tool of the request
	 * @return how its calls are protected, or {@code null} when they run unprotected
	 */
	@Nullable ToolProtection protectionOf(ToolCallback tool);

	/**
	 * The tools whose {@code @Tool} method carries {@link IdempotentTool}, with the protection it asks
	 * for. Spring AI's {@code MethodToolCallback} does not expose its method, so it is read from the
	 * callback's field; should a Spring AI version rename that field, no tool is found annotated and a
	 * WARN says so once.
	 * @return the policy
	 */
	static IdempotentToolPolicy annotated() {
		return AnnotatedToolPolicy.INSTANCE;
	}

	/**
	 * Every tool: those with {@link IdempotentTool} as the annotation says, the others with
	 * {@link ToolProtection#standard()}.
	 * @return the policy
	 */
	static IdempotentToolPolicy allTools() {
		return (tool) -> {
			ToolProtection annotated = AnnotatedToolPolicy.INSTANCE.protectionOf(tool);
			return (annotated != null) ? annotated : ToolProtection.standard();
		};
	}

	/**
	 * This policy, with {@code reconciler} settling the unknown outcomes of the tool named
	 * {@code toolName} (when this policy protects it).
	 * @param toolName the tool's name, as the model calls it
	 * @param reconciler looks the tool's effect up downstream
	 * @return the policy
	 */
	default IdempotentToolPolicy reconciling(String toolName, ToolReconciler reconciler) {
		return (tool) -> {
			ToolProtection protection = protectionOf(tool);
			return (protection != null && toolName.equals(tool.getToolDefinition().name()))
					? protection.withReconciler(reconciler) : protection;
		};
	}

}
