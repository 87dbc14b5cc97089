package dev.modelgate.idempotency.web;

/**
 * Decides, once the handler is done, whether its response is recorded for replay or the key is
 * released so that a retry runs again. Declare a bean of this type to replace the default split.
 */
@FunctionalInterface
public interface ResponsePolicy {

	/**
	 * @param status the status the handler produced
	 * @return whether to record the response; {@code false} releases the key
	 */
	boolean shouldRecord(int status);

}
