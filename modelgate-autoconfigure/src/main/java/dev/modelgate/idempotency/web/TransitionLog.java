package dev.modelgate.idempotency.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Narrates, at DEBUG, every decision of the filter under one logger,
 * {@value #LOGGER_NAME}, so that an operator can follow a key through its states by turning on one
 * category. A line names the method, the route pattern and the scope hash, never the key, the body
 * or the client identity.
 */
final class TransitionLog {

	/** The one logger to set to DEBUG to follow the state transitions. */
	static final String LOGGER_NAME = "dev.modelgate.idempotency.transitions";

	private static final Log logger = LogFactory.getLog(LOGGER_NAME);

	private TransitionLog() {
	}

	/** Whether decisions are narrated at all, so that callers can skip making them. */
	static boolean isNarrating() {
		return logger.isDebugEnabled();
	}

	static void narrate(IdempotencyDecision decision) {
		if (logger.isDebugEnabled()) {
			logger.debug(decision.method() + " " + decision.endpoint().route() + " scope="
					+ ((decision.scope() != null) ? decision.scope() : "-") + ": " + decision.outcome().narration());
		}
	}

}
