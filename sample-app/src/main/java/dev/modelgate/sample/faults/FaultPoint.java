package dev.modelgate.sample.faults;

import java.util.Locale;

/**
 * The moments of a keyed request at which fault injection can stop it, in the order they happen.
 * Each is one of the windows that the idempotency guarantees talk about; the reliability suite kills
 * the process while a request is held at one of them.
 */
public enum FaultPoint {

	/** The key is acquired, the provider not yet called. */
	BEFORE_UPSTREAM,

	/** The provider answered; the client is not charged yet and nothing is recorded. */
	AFTER_UPSTREAM,

	/**
	 * The client's credits are charged (with the JDBC store, in a transaction that also marked the
	 * key applied); the controller has not returned, so the response is not recorded yet.
	 */
	AFTER_CHARGE,

	/** The record is written; not one byte of the response has been sent. */
	AFTER_RECORD,

	/** An agent run ({@code POST /v1/agent/runs}): its first model round is answered and recorded, its tool not yet called. */
	AFTER_MODEL_ROUND,

	/** An agent run: its first tool call (the mail) took effect, its result is not recorded. */
	AFTER_TOOL_EFFECT,

	/** An agent run: its first tool call's result is recorded, the next model round not yet asked for. */
	AFTER_TOOL_RECORD;

	/** The name used in the request header and in log lines, for example {@code before-upstream}. */
	public String headerValue() {
		return name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	/**
	 * @param value a header value such as {@code after-record}
	 * @return the point, or {@code null} when the value names none
	 */
	static FaultPoint fromHeaderValue(String value) {
		for (FaultPoint point : values()) {
			if (point.headerValue().equalsIgnoreCase(value.strip())) {
				return point;
			}
		}
		return null;
	}

}
