package dev.modelgate.idempotency.ai;

/**
 * What a re-run of an agent gets when the model calls a tool at the place of a recorded call (same run,
 * round, position and tool) with other arguments. The key names the intent ("the first call of round 2"),
 * not the arguments: a model that words a call differently on a re-run is still making the call it made
 * before.
 */
public enum ArgumentMismatch {

	/**
	 * The recorded result stands: the tool does not run again, and the model gets the recorded result
	 * with a note that the call was made earlier with other arguments.
	 */
	REPLAY,

	/**
	 * The call is refused with {@link ToolArgumentsMismatchException}, which ends the chat call: for
	 * tools where another argument means another effect the model must not be told happened.
	 */
	REFUSE

}
