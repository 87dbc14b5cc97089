package dev.modelgate.idempotency.core.internal;

import java.time.Duration;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.SpentMarker;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * What each recorded outcome of one endpoint, operation or listener leaves behind once its answer
 * expires: a {@link SpentMarker} kept for {@code retention}, whose status and resource reference are
 * read from the outcome by the adapter that wrote it; nothing when the retention is zero.
 */
public final class SpentMarkers {

	/** No marker: the key is free once the answer expires. */
	public static final SpentMarkers NONE = new SpentMarkers(Duration.ZERO, (outcome) -> "unknown",
			(outcome) -> null);

	private final Duration retention;

	private final Function<@Nullable StoredOutcome, String> status;

	private final Function<@Nullable StoredOutcome, @Nullable String> resource;

	private SpentMarkers(Duration retention, Function<@Nullable StoredOutcome, String> status,
			Function<@Nullable StoredOutcome, @Nullable String> resource) {
		this.retention = retention;
		this.status = status;
		this.resource = resource;
	}

	/**
	 * Markers kept for {@code retention}.
	 * @param retention how long a marker outlives the answer; zero for none
	 * @param status the final status of an outcome ({@code null}: the result was not kept)
	 * @param resource the resource reference of an outcome, or {@code null}
	 * @return the markers
	 */
	public static SpentMarkers of(Duration retention, Function<@Nullable StoredOutcome, String> status,
			Function<@Nullable StoredOutcome, @Nullable String> resource) {
		return (retention.isZero() || retention.isNegative()) ? NONE : new SpentMarkers(retention, status, resource);
	}

	/**
	 * Markers for programmatic work and listeners: the status is the outcome kind's code
	 * ({@code unknown} when the result was not kept), the resource the one the work named.
	 * @param retention how long a marker outlives the answer; zero for none
	 * @param resource the resource reference the work named, or {@code null}
	 * @return the markers
	 */
	public static SpentMarkers ofKind(Duration retention, Function<@Nullable StoredOutcome, @Nullable String> resource) {
		return of(retention, (outcome) -> (outcome != null) ? outcome.kind().code() : StoredOutcome.Kind.UNKNOWN.code(),
				resource);
	}

	/**
	 * {@return the marker {@code outcome} leaves, or {@code null} for none}
	 * @param outcome the recorded outcome, or {@code null} when its result is not kept
	 */
	public @Nullable SpentMarker markerFor(@Nullable StoredOutcome outcome) {
		if (this == NONE) {
			return null;
		}
		String resource = this.resource.apply(outcome);
		if (resource != null && resource.length() > SpentMarker.MAX_RESOURCE_LENGTH) {
			resource = null;
		}
		return new SpentMarker(this.retention, this.status.apply(outcome), resource);
	}

}
