package dev.modelgate.sample.faults;

import java.time.Duration;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The fault the current request asked for, bound to its thread by {@link FaultInjectionFilter} for
 * as long as the request runs (the endpoint is synchronous, so every point is reached on that thread).
 */
final class RequestedFault {

	private static final Log logger = LogFactory.getLog(RequestedFault.class);

	private static final ThreadLocal<RequestedFault> current = new ThreadLocal<>();

	private final FaultPoint point;

	private final Duration pause;

	private RequestedFault(FaultPoint point, Duration pause) {
		this.point = point;
		this.pause = pause;
	}

	static void bind(FaultPoint point, Duration pause) {
		current.set(new RequestedFault(point, pause));
	}

	static void unbind() {
		current.remove();
	}

	/**
	 * Stops the calling thread for the configured pause when the current request asked to be stopped
	 * at {@code point}. The log line is the signal a test waits for before it kills the process.
	 */
	static void pauseIfRequested(FaultPoint point) {
		RequestedFault fault = current.get();
		if (fault == null || fault.point != point) {
			return;
		}
		logger.warn("Fault injection: request paused at " + point.headerValue() + " for up to " + fault.pause);
		try {
			Thread.sleep(fault.pause.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		logger.warn("Fault injection: request resumed after " + point.headerValue());
	}

}
