package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the {@link IdempotencyListener listeners} of every decision and narrates it at DEBUG under
 * one logger, {@value #TRANSITIONS_LOGGER}, so that an operator can follow a key through its states by
 * turning on one category. The web filters and {@link IdempotencyTemplate} report through it, so the
 * same decisions reach the same listeners whichever way the work was started. A narrated line names
 * the method, the route and the scope hash, never the key, the body or the client identity.
 */
public final class DecisionReporter {

	/** The one logger to set to DEBUG to follow the state transitions. */
	public static final String TRANSITIONS_LOGGER = "dev.modelgate.idempotency.transitions";

	private static final Logger narrator = LoggerFactory.getLogger(TRANSITIONS_LOGGER);

	private static final Logger logger = LoggerFactory.getLogger(DecisionReporter.class);

	private static final DecisionReporter SILENT = new DecisionReporter(List.of());

	private final List<IdempotencyListener> listeners;

	private DecisionReporter(List<IdempotencyListener> listeners) {
		this.listeners = listeners;
	}

	/**
	 * {@return a reporter that calls {@code listeners} in order}
	 * @param listeners told of every decision
	 */
	public static DecisionReporter of(List<? extends IdempotencyListener> listeners) {
		return listeners.isEmpty() ? SILENT : new DecisionReporter(List.copyOf(listeners));
	}

	/** {@return a reporter with no listener; it still narrates} */
	public static DecisionReporter silent() {
		return SILENT;
	}

	/**
	 * Whether anything follows the decisions (a listener, or the transitions logger at DEBUG), so that
	 * callers can skip work that only produces a decision.
	 * @return whether a decision would reach anyone
	 */
	public boolean isFollowed() {
		return !this.listeners.isEmpty() || narrator.isDebugEnabled();
	}

	/**
	 * Reports one decision; a listener that throws is logged and otherwise ignored.
	 * @param outcome the decision
	 * @param method the HTTP method, {@link IdempotencyDecision#OPERATION} or {@link IdempotencyDecision#LISTENER}
	 * @param route the route pattern, or the operation's name
	 * @param scope the hashed scope, or {@code null} when the decision came before there was one
	 */
	public void decide(IdempotencyOutcome outcome, String method, String route, @Nullable String scope) {
		if (narrator.isDebugEnabled()) {
			narrator.debug("{} {} scope={}: {}", method, route, (scope != null) ? scope : "-", outcome.narration());
		}
		if (this.listeners.isEmpty()) {
			return;
		}
		IdempotencyDecision decision = new IdempotencyDecision(outcome, method, route, scope);
		for (IdempotencyListener listener : this.listeners) {
			try {
				listener.onDecision(decision);
			}
			catch (RuntimeException ex) {
				logger.warn("IdempotencyListener {} failed", listener.getClass().getName(), ex);
			}
		}
	}

	/**
	 * Reports how a keyed request or call was answered and how long it took.
	 * @param kind a first run or a replay
	 * @param method the HTTP method, {@link IdempotencyDecision#OPERATION} or {@link IdempotencyDecision#LISTENER}
	 * @param route the route pattern, or the operation's name
	 * @param duration how long the answer took
	 */
	public void responded(IdempotencyListener.ResponseKind kind, String method, String route, Duration duration) {
		tell((listener) -> listener.onResponse(kind, method, route, duration));
	}

	/**
	 * Reports one store write of a recorded stream's events.
	 * @param method the HTTP method
	 * @param route the route pattern
	 * @param events how many events the write appended
	 * @param bytes their size
	 */
	public void streamAppended(String method, String route, int events, long bytes) {
		tell((listener) -> listener.onStreamAppend(method, route, events, bytes));
	}

	/**
	 * Reports the time the library added before a recorded stream's first event reached the client.
	 * @param method the HTTP method
	 * @param route the route pattern
	 * @param added the store writes before the first event plus its write to the connection
	 */
	public void streamFirstEvent(String method, String route, Duration added) {
		tell((listener) -> listener.onStreamFirstEvent(method, route, added));
	}

	/**
	 * Reports what the status resource answered.
	 * @param outcome as in {@link IdempotencyListener#onStatusLookup}
	 */
	public void statusLookedUp(String outcome) {
		tell((listener) -> listener.onStatusLookup(outcome));
	}

	private void tell(Consumer<IdempotencyListener> call) {
		for (IdempotencyListener listener : this.listeners) {
			try {
				call.accept(listener);
			}
			catch (RuntimeException ex) {
				logger.warn("IdempotencyListener {} failed", listener.getClass().getName(), ex);
			}
		}
	}

}
