package dev.modelgate.idempotency.web.testapp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;

import dev.modelgate.idempotency.micrometer.IdempotencyStoreObservationContext;

/**
 * Records every store observation as it stops, with the name of its parent observation, standing in
 * for a tracing bridge: a span's parent is the observation that was current when it started.
 */
public class StoreObservations implements ObservationHandler<IdempotencyStoreObservationContext> {

	private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof IdempotencyStoreObservationContext;
	}

	@Override
	public void onStop(IdempotencyStoreObservationContext context) {
		ObservationView parent = context.getParentObservation();
		this.recorded.add(new Recorded(context.getContextualName(), context.getScope(), context.getResult(),
				(parent != null) ? parent.getContextView().getName() : null));
	}

	public List<Recorded> forScope(String scope) {
		return this.recorded.stream().filter((recorded) -> scope.equals(recorded.scope())).toList();
	}

	/**
	 * One stopped store observation.
	 *
	 * @param name the contextual (span) name
	 * @param scope the scope hash
	 * @param result the store's answer
	 * @param parent the name of the parent observation, or {@code null}
	 */
	public record Recorded(String name, String scope, String result, String parent) {
	}

}
