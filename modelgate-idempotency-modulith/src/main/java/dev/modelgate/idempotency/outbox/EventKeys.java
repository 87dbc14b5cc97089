package dev.modelgate.idempotency.outbox;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * Derives the key of an event from the keyed request or operation that publishes it:
 * {@code DerivedKeys.uuid(scope, "event", name)}, where the scope is the hash of the running
 * attempt's scope (client identity, endpoint and key; never the client's raw key) and the name says
 * which event of the run it is. A retry of the request, a re-run after a release or a takeover, and a
 * resubmission of the stored publication all see the same key; two runs (other keys, other clients)
 * never share one. Name each event a run publishes differently: two events of one run with one name
 * are one side effect.
 */
public final class EventKeys {

	/** The label between scope and name, which keeps event keys apart from outgoing-call keys of the same scope. */
	static final String EVENT = "event";

	private EventKeys() {
	}

	/**
	 * @param name which event of the running request or operation this is ({@code "welcome-mail"},
	 * {@code "invoice-" + invoiceId})
	 * @return the event's key
	 * @throws IllegalStateException when no keyed request or operation runs on this thread (an event
	 * published there has no stable origin to derive a key from)
	 */
	public static String derive(String name) {
		IdempotencyContext.Held held = IdempotencyContext.current()
			.orElseThrow(() -> new IllegalStateException("No keyed request or idempotent operation runs on this "
					+ "thread, so an event key cannot be derived: publish the event from inside one, or give it a key "
					+ "of its own"));
		return derive(held.scope(), name);
	}

	/**
	 * @param scope the scope hash of the run that publishes the event ({@code IdempotencyContext.Held#scope()})
	 * @param name which event of the run this is
	 * @return the event's key
	 */
	public static String derive(String scope, String name) {
		if (name.isEmpty()) {
			throw new IllegalArgumentException("The event name must not be empty");
		}
		return DerivedKeys.uuid(scope, EVENT, name);
	}

}
