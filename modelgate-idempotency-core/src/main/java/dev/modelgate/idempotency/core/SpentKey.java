package dev.modelgate.idempotency.core;

import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * What a store still knows of a completed record whose answer expired while its key is kept spent
 * (see {@link SpentMarker}): enough to tell a retry that the operation ran, and how it ended,
 * without running it again.
 *
 * @param status the final status the completer named (see {@link SpentMarker#status()})
 * @param completedAt when the record completed, on the store's clock
 * @param resource the resource reference the completer named, or {@code null}
 */
public record SpentKey(String status, Instant completedAt, @Nullable String resource) {

	public SpentKey {
		Objects.requireNonNull(status, "status must not be null");
		Objects.requireNonNull(completedAt, "completedAt must not be null");
	}

}
