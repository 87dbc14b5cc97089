package dev.modelgate.idempotency.ai;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a Spring AI {@code @Tool} method whose calls run at most once per run: during a keyed run, each
 * call of the tool gets a key derived from the run, the round of the conversation, the position of the
 * call in that round and the tool's name, and {@link IdempotentToolCallingManager} runs it through
 * {@code IdempotencyTemplate}. A re-run of the agent that reaches the same call gets the recorded result,
 * which goes back to the model, and the method does not run again.
 *
 * <pre class="code">
 * &#64;Tool(description = "Send an e-mail")
 * &#64;IdempotentTool
 * public String sendEmail(String to, String text) { ... }
 * </pre>
 *
 * <p>Failures are handled as the template's failure policy says (released, so a re-run calls the tool
 * again, unless {@link #recordOn()} or {@link #unknownOn()} say otherwise).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotentTool {

	/**
	 * What a re-run gets when the model calls the tool at the same place with other arguments:
	 * {@link ArgumentMismatch#REPLAY} (the default) gives it the recorded result, with a note saying that
	 * the call was made before with other arguments; {@link ArgumentMismatch#REFUSE} refuses the call with
	 * {@link ToolArgumentsMismatchException}.
	 */
	ArgumentMismatch onArgumentMismatch() default ArgumentMismatch.REPLAY;

	/**
	 * Failures (matched with their causes, each against its class and superclasses) that are final:
	 * recorded, and replayed to a re-run as {@code RecordedFailureException} instead of calling the tool
	 * again.
	 */
	Class<? extends Throwable>[] recordOn() default {};

	/**
	 * Failures after which the tool may or may not have taken effect (a timeout after the request was
	 * sent): recorded as unknown, so a re-run does not call the tool blindly but gets
	 * {@code OutcomeUnknownException}.
	 */
	Class<? extends Throwable>[] unknownOn() default {};

}
