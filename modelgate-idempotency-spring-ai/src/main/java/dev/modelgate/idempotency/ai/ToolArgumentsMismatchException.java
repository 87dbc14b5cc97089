package dev.modelgate.idempotency.ai;

/**
 * A tool that refuses other arguments ({@link ArgumentMismatch#REFUSE}) was called, at the place of a
 * recorded call of the run, with arguments other than the recorded ones. The tool did not run.
 */
public class ToolArgumentsMismatchException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	/** The tool that refused the call. */
	private final String toolName;

	/**
	 * @param toolName the tool
	 * @param round the round of the conversation
	 * @param position the position of the call in the round
	 */
	public ToolArgumentsMismatchException(String toolName, int round, int position) {
		super("Tool '" + toolName + "' was called in round " + round + " at position " + position
				+ " with other arguments than the call recorded there for this run; it refuses other arguments and did not run");
		this.toolName = toolName;
	}

	/** @return the tool that refused the call */
	public String getToolName() {
		return this.toolName;
	}

}
