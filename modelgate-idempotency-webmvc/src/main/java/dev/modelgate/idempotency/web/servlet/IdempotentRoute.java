package dev.modelgate.idempotency.web.servlet;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.JsonPointer;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;

/**
 * The settings of {@link Idempotent @Idempotent} for a route that has no annotated handler method:
 * a Spring MVC functional endpoint, or a route declared by configuration ({@link DeclaredRoute}).
 *
 * <p>On a functional route it is a route attribute:
 * <pre class="code">
 * route().POST("/v1/chat/completions", chat::complete)
 *     .withAttributes(IdempotentRoute.idempotent().required(true))
 *     .build();
 * </pre>
 * The filter reads it when it looks the request up through the {@code RouterFunctionMapping}, before
 * the DispatcherServlet runs. Each method returns a copy; an instance never changes.
 */
public final class IdempotentRoute implements Consumer<Map<String, Object>> {

	/** The name of the route attribute that holds the settings. */
	public static final String ATTRIBUTE = IdempotentRoute.class.getName();

	private static final IdempotentRoute DEFAULTS = new IdempotentRoute("", false, null, null,
			Idempotent.InProgress.DEFAULT, List.of(), Idempotent.StoreFailure.REJECT, true);

	private final String scope;

	private final boolean required;

	private final @Nullable Duration ttl;

	private final @Nullable Duration leaseTtl;

	private final Idempotent.InProgress inProgress;

	private final List<JsonPointer> ignoreFields;

	private final Idempotent.StoreFailure onStoreFailure;

	private final boolean attachToStream;

	private IdempotentRoute(String scope, boolean required, @Nullable Duration ttl, @Nullable Duration leaseTtl,
			Idempotent.InProgress inProgress, List<JsonPointer> ignoreFields, Idempotent.StoreFailure onStoreFailure,
			boolean attachToStream) {
		this.scope = scope;
		this.required = required;
		this.ttl = ttl;
		this.leaseTtl = leaseTtl;
		this.inProgress = inProgress;
		this.ignoreFields = ignoreFields;
		this.onStoreFailure = onStoreFailure;
		this.attachToStream = attachToStream;
	}

	/** {@return the annotation's defaults: every setting from the global properties, keys optional} */
	public static IdempotentRoute idempotent() {
		return DEFAULTS;
	}

	/**
	 * @param scope the name of the key space; empty means the route pattern
	 * @return a copy with this scope
	 */
	public IdempotentRoute scope(String scope) {
		return new IdempotentRoute(Objects.requireNonNull(scope, "scope"), this.required, this.ttl, this.leaseTtl,
				this.inProgress, this.ignoreFields, this.onStoreFailure, this.attachToStream);
	}

	/**
	 * @param required whether a request without a key is refused with 400 {@code idempotency_key_missing}
	 * @return a copy with this setting
	 */
	public IdempotentRoute required(boolean required) {
		return new IdempotentRoute(this.scope, required, this.ttl, this.leaseTtl, this.inProgress, this.ignoreFields,
				this.onStoreFailure, this.attachToStream);
	}

	/**
	 * @param ttl how long a completed response is kept; {@code null} means the global setting
	 * @return a copy with this setting
	 */
	public IdempotentRoute ttl(@Nullable Duration ttl) {
		return new IdempotentRoute(this.scope, this.required, positive(ttl, "ttl"), this.leaseTtl, this.inProgress,
				this.ignoreFields, this.onStoreFailure, this.attachToStream);
	}

	/**
	 * @param leaseTtl how long a lease lasts between heartbeats; {@code null} means the global setting
	 * @return a copy with this setting
	 */
	public IdempotentRoute leaseTtl(@Nullable Duration leaseTtl) {
		return new IdempotentRoute(this.scope, this.required, this.ttl, positive(leaseTtl, "leaseTtl"),
				this.inProgress, this.ignoreFields, this.onStoreFailure, this.attachToStream);
	}

	/**
	 * @param inProgress what a duplicate gets while the first request runs; {@code DEFAULT} means the
	 * global setting
	 * @return a copy with this setting
	 */
	public IdempotentRoute inProgress(Idempotent.InProgress inProgress) {
		return new IdempotentRoute(this.scope, this.required, this.ttl, this.leaseTtl,
				Objects.requireNonNull(inProgress, "inProgress"), this.ignoreFields, this.onStoreFailure,
				this.attachToStream);
	}

	/**
	 * @param ignoreFields JSON Pointers (RFC 6901) of body members left out of the fingerprint
	 * @return a copy with these pointers
	 * @throws IllegalArgumentException when one is not a JSON Pointer
	 */
	public IdempotentRoute ignoreFields(String... ignoreFields) {
		return new IdempotentRoute(this.scope, this.required, this.ttl, this.leaseTtl, this.inProgress,
				List.copyOf(CanonicalBody.pointers(ignoreFields)), this.onStoreFailure, this.attachToStream);
	}

	/**
	 * @param onStoreFailure what happens when the store cannot be reached before the handler runs
	 * @return a copy with this setting
	 */
	public IdempotentRoute onStoreFailure(Idempotent.StoreFailure onStoreFailure) {
		return new IdempotentRoute(this.scope, this.required, this.ttl, this.leaseTtl, this.inProgress,
				this.ignoreFields, Objects.requireNonNull(onStoreFailure, "onStoreFailure"), this.attachToStream);
	}

	/**
	 * @param attachToStream whether a duplicate attaches to a stream still being recorded
	 * @return a copy with this setting
	 */
	public IdempotentRoute attachToStream(boolean attachToStream) {
		return new IdempotentRoute(this.scope, this.required, this.ttl, this.leaseTtl, this.inProgress,
				this.ignoreFields, this.onStoreFailure, attachToStream);
	}

	/** Puts these settings into a route's attributes, under {@link #ATTRIBUTE}. */
	@Override
	public void accept(Map<String, Object> attributes) {
		attributes.put(ATTRIBUTE, this);
	}

	/**
	 * The settings with the global defaults applied; the route is filled in per request.
	 * @param defaults the global values
	 */
	IdempotentEndpoint endpoint(EndpointDefaults defaults) {
		Idempotent.InProgress inProgress = (this.inProgress != Idempotent.InProgress.DEFAULT) ? this.inProgress
				: defaults.inProgress();
		Duration waitTimeout = (inProgress == Idempotent.InProgress.WAIT) ? defaults.waitTimeout() : Duration.ZERO;
		return new IdempotentEndpoint("", this.scope, this.required, (this.ttl != null) ? this.ttl : defaults.ttl(),
				(this.leaseTtl != null) ? this.leaseTtl : defaults.leaseTtl(), waitTimeout, this.ignoreFields,
				this.onStoreFailure, this.attachToStream, defaults.spentKeyRetention(), "Location");
	}

	boolean isRequired() {
		return this.required;
	}

	private static @Nullable Duration positive(@Nullable Duration duration, String name) {
		if (duration != null && (duration.isNegative() || duration.isZero())) {
			throw new IllegalArgumentException(name + " must be a positive duration, was " + duration);
		}
		return duration;
	}

	@Override
	public String toString() {
		return "IdempotentRoute[scope='" + this.scope + "', required=" + this.required + ", ttl=" + this.ttl
				+ ", leaseTtl=" + this.leaseTtl + ", inProgress=" + this.inProgress + ", ignoreFields="
				+ this.ignoreFields + ", onStoreFailure=" + this.onStoreFailure + ", attachToStream="
				+ this.attachToStream + "]";
	}

}
