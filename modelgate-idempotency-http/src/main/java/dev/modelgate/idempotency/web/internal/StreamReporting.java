package dev.modelgate.idempotency.web.internal;

import java.time.Duration;

import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.web.internal.StreamReporting;

/**
 * What a recorded stream tells the listeners about its stream, under the request's method
 * and route: each store write of events, and the time added before the first event.
 *
 * @param reporter where it goes
 * @param method the HTTP method
 * @param route the route pattern
 */
public record StreamReporting(DecisionReporter reporter, String method, String route) {

	public void appended(int events, long bytes) {
		this.reporter.streamAppended(this.method, this.route, events, bytes);
	}

	public void firstEvent(long addedNanos) {
		this.reporter.streamFirstEvent(this.method, this.route, Duration.ofNanos(addedNanos));
	}

}
