package dev.modelgate.idempotency.autoconfigure;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.web.servlet.InvalidIdempotentRouteException;

/**
 * Reports an idempotent functional route the filter cannot find per request, and how to fix it. The
 * exception is the Spring MVC module's, which an application without Spring MVC does not have: then
 * there is nothing to analyze.
 */
class InvalidIdempotentRouteFailureAnalyzer implements FailureAnalyzer {

	private static final boolean WEBMVC_PRESENT = ClassUtils.isPresent(
			"dev.modelgate.idempotency.web.servlet.InvalidIdempotentRouteException",
			InvalidIdempotentRouteFailureAnalyzer.class.getClassLoader());

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		return WEBMVC_PRESENT ? Analysis.of(failure) : null;
	}

	private static final class Analysis {

		static @Nullable FailureAnalysis of(Throwable failure) {
			for (Throwable candidate = failure; candidate != null; candidate = candidate.getCause()) {
				if (candidate instanceof InvalidIdempotentRouteException cause) {
					return new FailureAnalysis(cause.getMessage(), "Change the route as described above, or leave "
							+ "the IdempotentRoute attribute off it and declare it in modelgate.idempotency.routes (by "
							+ "method and path pattern, whatever serves it).", cause);
				}
			}
			return null;
		}

	}

}
