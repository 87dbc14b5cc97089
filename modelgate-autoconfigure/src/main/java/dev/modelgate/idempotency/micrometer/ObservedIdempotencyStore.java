package dev.modelgate.idempotency.micrometer;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStores;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * Wraps each store call in a Micrometer {@link Observation}: with Spring Boot's default handlers that
 * is a timer per operation (see {@link DefaultIdempotencyStoreObservationConvention}) and, with a
 * tracing bridge, a span that is a child of the request's span. A stream's calls, made from
 * whichever thread the handler sends on, are observed under the observation its key was acquired
 * under (the request's), so that a stream is one trace.
 */
public class ObservedIdempotencyStore implements IdempotencyStore {

	private static final IdempotencyStoreObservationConvention DEFAULT_CONVENTION =
			new DefaultIdempotencyStoreObservationConvention();

	private final IdempotencyStore delegate;

	private final ObservationRegistry registry;

	private final IdempotencyStoreObservationConvention convention;

	private final String storeType;

	/**
	 * The observation each held key was acquired under (the request's), the parent of its stream's
	 * calls from other threads; keyed by the holder's own scope string, so an entry that no
	 * complete or release removed goes with the holder's lease, which keeps that string.
	 */
	private final Map<String, Observation> streamParents = Collections.synchronizedMap(new WeakHashMap<>());

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
	}

	@Override
	public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		BeginResult result = observe("begin", scope, () -> this.delegate.begin(scope, fingerprint, token, leaseTtl),
				(answer) -> answer.outcome().name().toLowerCase(Locale.ROOT));
		Observation current = this.registry.getCurrentObservation();
		if (result.outcome() == BeginResult.Outcome.ACQUIRED && current != null) {
			this.streamParents.put(scope, current);
		}
		return result;
	}

	@Override
	public boolean renew(String scope, String token, Duration leaseTtl) {
		return observe("renew", scope, () -> this.delegate.renew(scope, token, leaseTtl),
				ObservedIdempotencyStore::accepted);
	}

	@Override
	public boolean complete(String scope, String token, @Nullable StoredOutcome outcome, Duration ttl) {
		return observe("complete", scope, () -> this.delegate.complete(scope, token, outcome, ttl),
				ObservedIdempotencyStore::accepted, this.streamParents.remove(scope));
	}

	@Override
	public boolean release(String scope, String token) {
		return observe("release", scope, () -> this.delegate.release(scope, token),
				ObservedIdempotencyStore::accepted, this.streamParents.remove(scope));
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
				ObservedIdempotencyStore::accepted, this.streamParents.get(scope));
	}

	@Override
	public boolean appendEvents(String scope, String token, long fromSequence, List<byte[]> events) {
		return observe("appendEvents", scope, () -> this.delegate.appendEvents(scope, token, fromSequence, events),
				ObservedIdempotencyStore::accepted, this.streamParents.get(scope));
	}

	@Override
	public boolean completeStream(String scope, String token, Duration ttl) {
		return observe("completeStream", scope, () -> this.delegate.completeStream(scope, token, ttl),
				ObservedIdempotencyStore::accepted, this.streamParents.remove(scope));
	}

	@Override
	public Optional<StreamSlice> readStream(String scope, long afterSequence, int max) {
		return observe("readStream", scope, () -> this.delegate.readStream(scope, afterSequence, max),
				(found) -> found.isPresent() ? "found" : "absent");
	}

	/** {@return the store this one observes} */
	public IdempotencyStore getDelegate() {
		return this.delegate;
	}

	private <T> T observe(String operation, String scope, Supplier<T> call, Function<T, String> result) {
		return observe(operation, scope, call, result, null);
	}

	/** @param streamParent the stream's observation, the parent when no observation is current */
	private <T> T observe(String operation, String scope, Supplier<T> call, Function<T, String> result,
			@Nullable Observation streamParent) {
		IdempotencyStoreObservationContext context = new IdempotencyStoreObservationContext(operation,
				this.storeType, scope);
		Observation observation = Observation.createNotStarted(this.convention, DEFAULT_CONVENTION, () -> context,
				this.registry);
		if (streamParent != null && this.registry.getCurrentObservation() == null) {
			observation.parentObservation(streamParent);
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
