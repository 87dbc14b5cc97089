package dev.modelgate.idempotency.web.internal;

import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.web.method.HandlerMethod;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.internal.AnnotationDurations;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.internal.AnnotatedEndpoints;

/**
 * Reads {@code @Idempotent} on a handler method into its endpoint's settings, the same way for the
 * Spring MVC and the WebFlux resolvers: the annotation's attributes, the global defaults where it
 * leaves one unset. Internal to the web modules.
 */
public final class AnnotatedEndpoints {

	private AnnotatedEndpoints() {
	}

	/**
	 * @param annotation the handler's annotation
	 * @param handler the handler, named in the message of a bad attribute
	 * @param defaults the global values the annotation's unset attributes take
	 * @return the endpoint, without its route (see {@link IdempotentEndpoint#withRoute})
	 * @throws IllegalStateException naming the handler when an attribute is not valid
	 */
	public static IdempotentEndpoint of(Idempotent annotation, HandlerMethod handler, EndpointDefaults defaults) {
		Duration ttl = defaults.ttl();
		Duration leaseTtl = defaults.leaseTtl();
		Duration waitTimeout = defaults.waitTimeout();
		Idempotent.InProgress inProgress = defaults.inProgress();
		try {
			Idempotent.InProgress mode = (annotation.inProgress() != Idempotent.InProgress.DEFAULT)
					? annotation.inProgress() : inProgress;
			return new IdempotentEndpoint("", annotation.scope(), annotation.required(),
					duration(annotation.ttl(), ttl, "ttl"), duration(annotation.leaseTtl(), leaseTtl, "leaseTtl"),
					(mode == Idempotent.InProgress.WAIT) ? waitTimeout : Duration.ZERO,
					CanonicalBody.pointers(annotation.ignoreFields()), annotation.onStoreFailure(),
					annotation.attachToStream(),
					zeroOrMore(annotation.spentKeyRetention(), defaults.spentKeyRetention(), "spentKeyRetention"),
					annotation.spentKeyResourceHeader());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalStateException("@Idempotent on " + describe(handler) + ": " + ex.getMessage(), ex);
		}
	}

	/** {@code com.example.OrderController#create(Map, String)}: the method as a reader finds it. */
	private static String describe(HandlerMethod handler) {
		return handler.getBeanType().getName() + "#" + handler.getMethod().getName() + Arrays
			.stream(handler.getMethod().getParameterTypes())
			.map(Class::getSimpleName)
			.collect(Collectors.joining(", ", "(", ")"));
	}

	private static Duration zeroOrMore(String value, Duration fallback, String attribute) {
		@Nullable Duration duration = AnnotationDurations.parseZeroOrMore(value, attribute);
		return (duration != null) ? duration : fallback;
	}

	private static Duration duration(String value, Duration fallback, String attribute) {
		@Nullable Duration duration = AnnotationDurations.parse(value, attribute);
		return (duration != null) ? duration : fallback;
	}

}
