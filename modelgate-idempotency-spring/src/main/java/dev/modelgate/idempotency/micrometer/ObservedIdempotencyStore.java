package dev.modelgate.idempotency.micrometer;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStores;
import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * Wraps each store call in a Micrometer {@link Observation}: with Spring Boot's default handlers that
 * is a timer per operation (see {@link DefaultIdempotencyStoreObservationConvention}) and, with a
 * tracing bridge, a span that is a child of the request's span. A lease's calls, made from
 * whichever thread the handler sends its stream on (or the heartbeat renews on), are observed under
 * the observation its key was acquired under (the request's), so that a stream is one trace: the
 * lease carries that observation in its {@link #forHolder view} of this store.
 */
public class ObservedIdempotencyStore implements IdempotencyStore {

	private static final IdempotencyStoreObservationConvention DEFAULT_CONVENTION =
			new DefaultIdempotencyStoreObservationConvention();

	private final IdempotencyStore delegate;

	private final ObservationRegistry registry;

	private final IdempotencyStoreObservationConvention convention;

	private final String storeType;

	/** In a holder's view: the observation its key was acquired under, the parent when none is current. */
	private final @Nullable Observation holderParent;

	/**
	 * @param delegate the store to observe
	 * @param registry where observations go
	 * @param convention replaces the default naming and tagging, or {@code null}
	 */
	public ObservedIdempotencyStore(IdempotencyStore delegate, ObservationRegistry registry,
			IdempotencyStoreObservationConvention convention) {
		this.delegate = delegate;
		this.registry = registry;
		this.convention = convention;
		this.storeType = IdempotencyStores.typeOf(delegate);
		this.holderParent = null;
	}

	private ObservedIdempotencyStore(ObservedIdempotencyStore store, Observation holderParent) {
		this.delegate = store.delegate;
		this.registry = store.registry;
		this.convention = store.convention;
		this.storeType = store.storeType;
		this.holderParent = holderParent;
	}

	/**
	 * The view a new lease calls: it keeps the observation current now (the request's), made the
	 * parent of the lease's calls from threads where none is current.
	 */
	@Override
	public IdempotencyStore forHolder(String scope) {
		Observation current = this.registry.getCurrentObservation();
		return (current != null) ? new ObservedIdempotencyStore(this, current) : this;
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		return observe("begin", scope, () -> this.delegate.begin(scope, fingerprint, token, leaseTtl),
				(answer) -> answer.outcome().name().toLowerCase(Locale.ROOT));
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return observe("renew", scope, () -> this.delegate.renew(scope, token, leaseTtl),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return observe("complete", scope, () -> this.delegate.complete(scope, token, outcome, ttl),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl,
			SpentMarker marker) {
		return observe("complete", scope, () -> this.delegate.complete(scope, token, outcome, ttl, marker),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean release(String scope, String token) {
		return observe("release", scope, () -> this.delegate.release(scope, token),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public Optional<IdempotencyRecord> find(String scope) {
		return observe("find", scope, () -> this.delegate.find(scope),
				(found) -> found.isPresent() ? "found" : "absent");
	}

	@Override
	public boolean delete(String scope) {
		return observe("delete", scope, () -> this.delegate.delete(scope), ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean openStream(String scope, String token, byte[] head) {
		return observe("openStream", scope, () -> this.delegate.openStream(scope, token, head),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return observe("appendEvents", scope, () -> this.delegate.appendEvents(scope, token, fromSequence, events),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return observe("completeStream", scope, () -> this.delegate.completeStream(scope, token, ttl),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return observe("readStream", scope, () -> this.delegate.readStream(scope, afterSequence, max),
				(found) -> found.isPresent() ? "found" : "absent");
	}

	private <T> T observe(String operation, String scope, Supplier<T> call, Function<T, String> result) {
		IdempotencyStoreObservationContext context = new IdempotencyStoreObservationContext(operation,
				this.storeType, scope);
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context,
				this.registry);
		if (this.holderParent != null && this.registry.getCurrentObservation() == null) {
			observation.parentObservation(this.holderParent);
		}
		return observation
			.observe(() -> {
				try {
					T answer = call.get();
					context.setResult(result.apply(answer));
					return answer;
				}
				catch (RuntimeException ex) {
					context.setResult(IdempotencyStoreObservationContext.ERROR);
					throw ex;
				}
			});
	}

	private static String accepted(boolean accepted) {
		return accepted ? "ok" : "refused";
	}

}
