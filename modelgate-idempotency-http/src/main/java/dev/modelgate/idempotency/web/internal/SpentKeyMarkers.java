package dev.modelgate.idempotency.web.internal;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.internal.SpentMarkers;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

/**
 * What a recorded response of an endpoint leaves once it expires, when the endpoint keeps spent keys:
 * its HTTP status, and the value of the endpoint's resource header ({@code Location} by default) as
 * the resource reference. A response that was not kept leaves the status {@code unknown}.
 */
final class SpentKeyMarkers {

	private SpentKeyMarkers() {
	}

	static SpentMarkers of(IdempotentEndpoint endpoint) {
		String header = endpoint.spentKeyResourceHeader();
		return SpentMarkers.of(endpoint.spentKeyRetention(), SpentKeyMarkers::status,
				(outcome) -> header.isEmpty() ? null : resource(outcome, header));
	}

	private static String status(@Nullable StoredOutcome outcome) {
		HttpResponseRecord response = response(outcome);
		return (response != null) ? Integer.toString(response.status()) : StoredOutcome.Kind.UNKNOWN.code();
	}

	private static @Nullable String resource(@Nullable StoredOutcome outcome, String header) {
		HttpResponseRecord response = response(outcome);
		if (response == null) {
			return null;
		}
		for (Map.Entry<String, List<String>> entry : response.headers().entrySet()) {
			if (entry.getKey().equalsIgnoreCase(header) && !entry.getValue().isEmpty()) {
				return entry.getValue().get(0);
			}
		}
		return null;
	}

	private static @Nullable HttpResponseRecord response(@Nullable StoredOutcome outcome) {
		if (outcome == null || outcome.kind() != StoredOutcome.Kind.RESPONSE) {
			return null;
		}
		try {
			return HttpResponseRecord.decode(outcome);
		}
		catch (IdempotencyStoreException ex) {
			return null;
		}
	}

}
