package dev.modelgate.idempotency;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a handler method (or every handler method of a controller) as idempotent under the
 * {@code Idempotency-Key} request header: a retry carrying the same key and the same request gets the
 * first response again instead of running the handler a second time. Spring MVC (the servlet filter)
 * and WebFlux (the web filter) read it alike; functional routes and Spring Cloud Gateway routes, which
 * have no handler method to annotate, are declared by properties ({@code modelgate.idempotency.routes})
 * or by the gateway's {@code Idempotency} filter. Methods that are not HTTP handlers (a message
 * listener, a tool call) use {@link IdempotentOperation} or {@code @IdempotentListener}.
 *
 * <p>Every attribute overrides the matching {@code modelgate.idempotency.*} property for this
 * endpoint only. Durations are written as Spring Boot reads them ({@code 30s}, {@code 24h},
 * {@code PT5M}); an empty string means "use the global property".
 */
@Target({ ElementType.METHOD, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Idempotent {

	/**
	 * Whether a request without a key is refused with 400 {@code idempotency_key_missing} rather
	 * than passed through unprotected.
	 */
	boolean required() default false;

	/** How long a completed response is kept for replay; empty means {@code modelgate.idempotency.ttl}. */
	String ttl() default "";

	/**
	 * How long an in-progress lease lasts without a heartbeat; empty means
	 * {@code modelgate.idempotency.lease-ttl}.
	 */
	String leaseTtl() default "";

	/**
	 * What a duplicate gets while the first request still runs; {@code DEFAULT} means
	 * {@code modelgate.idempotency.in-progress} (itself {@code REJECT} unless set).
	 */
	InProgress inProgress() default InProgress.DEFAULT;

	/**
	 * JSON Pointers (RFC 6901) of request body members left out of the fingerprint, for fields that
	 * legitimately change between retries such as a client timestamp or a trace id.
	 */
	String[] ignoreFields() default {};

	/** What happens when the store cannot be reached before the handler runs. */
	StoreFailure onStoreFailure() default StoreFailure.REJECT;

	/**
	 * Name of the key space; empty means the route pattern. Endpoints that share a scope name share
	 * their keys (for example two versions of one operation).
	 */
	String scope() default "";

	/**
	 * Whether a duplicate that arrives while the first request's Server-Sent Events are still
	 * streaming attaches to the stream (it receives every event recorded so far, then follows the
	 * new ones until the end) rather than getting what {@link #inProgress()} says. {@code false}
	 * keeps the 409 (or the wait) for streams too. Replays after the end and {@code Last-Event-ID}
	 * resumes are not affected.
	 */
	boolean attachToStream() default true;

	/**
	 * How long, once the response has expired after {@link #ttl()}, a retry with the key is still
	 * refused (410 {@code idempotency_key_spent}, with the original status and completion time)
	 * instead of running the handler again; empty means
	 * {@code modelgate.idempotency.spent-key-retention}, {@code "0s"} turns it off for this endpoint.
	 */
	String spentKeyRetention() default "";

	/**
	 * The response header whose value a spent key keeps as the reference to what the request created,
	 * shown to a spent retry as {@code resource}; empty for none.
	 */
	String spentKeyResourceHeader() default "Location";

	/** What a duplicate request gets while the first one with its key is still running. */
	enum InProgress {

		/**
		 * Whatever {@code modelgate.idempotency.in-progress} says ({@code REJECT} unless set). On
		 * {@link IdempotentOperation}, which has no global setting, the same as {@code REJECT}.
		 */
		DEFAULT,

		/** Answer 409 {@code idempotency_request_in_progress} with a {@code Retry-After} hint at once. */
		REJECT,

		/**
		 * Wait up to {@code modelgate.idempotency.wait-timeout} for the first request to finish, then
		 * replay its response, or answer the 409 if it is still running.
		 */
		WAIT

	}

	/** What happens when the store fails before the handler runs. */
	enum StoreFailure {

		/** Answer 503 {@code idempotency_store_unavailable}; the handler does not run. */
		REJECT,

		/** Run the handler without protection and log a WARN; duplicates are possible meanwhile. */
		PROCEED

	}

}
