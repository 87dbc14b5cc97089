package dev.modelgate.idempotency.gateway;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.GatewayToStringStyler;
import org.springframework.cloud.gateway.support.HasRouteId;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.internal.AnnotationDurations;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.reactive.ReactiveIdempotencyEngine;

/**
 * The {@code Idempotency} route filter: a keyed request on the route reaches the upstream once; its
 * retries get the upstream's recorded response (or Server-Sent Events stream) back, with
 * {@code Idempotent-Replayed: true}, as an {@code @Idempotent} handler would.
 *
 * <p>In YAML, {@code filters: - Idempotency} (every setting global), the shortcut
 * {@code - Idempotency=<scope>,<ttl>,<required>,<in-progress>}, or {@code - name: Idempotency} with
 * {@code args} named as the attributes of {@link Idempotent @Idempotent} ({@code scope}, {@code ttl},
 * {@code lease-ttl}, {@code required}, {@code in-progress}, {@code ignore-fields},
 * {@code on-store-failure}, {@code attach-to-stream}). In the Java DSL,
 * {@code .filters(f -> f.filter(idempotency.apply(c -> c.setTtl("1h"))))}.
 *
 * <p>The key space of a route is its id unless {@code scope} names one (routes that share a scope
 * share their keys). The filter runs before {@link NettyWriteResponseFilter} (see {@link #ORDER}) and
 * before the route's other filters, so that it sees the client's request as it came (its
 * {@code Authorization}, say, before a filter replaces it) and the upstream's response before it is
 * written to the client.
 */
public class IdempotencyGatewayFilterFactory extends AbstractGatewayFilterFactory<IdempotencyGatewayFilterFactory.Config> {

	/**
	 * The filter's order. {@link NettyWriteResponseFilter} writes the upstream's body to the response
	 * of the exchange it was given once the rest of the chain has run, so the filter has to come
	 * before it, and hand on an exchange whose response records what is written; one less than it,
	 * as Spring Cloud Gateway's own {@code ModifyResponseBody} filter does.
	 */
	public static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

	private final ReactiveIdempotencyEngine idempotency;

	private final EndpointDefaults defaults;

	/**
	 * @param idempotency runs a keyed exchange through the state machine
	 * @param defaults the global values a route's settings fall back to
	 */
	public IdempotencyGatewayFilterFactory(ReactiveIdempotencyEngine idempotency, EndpointDefaults defaults) {
		super(Config.class);
		this.idempotency = idempotency;
		this.defaults = defaults;
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return List.of("scope", "ttl", "required", "inProgress");
	}

	@Override
	public GatewayFilter apply(Config config) {
		IdempotentEndpoint settings = settings(config);
		return new OrderedGatewayFilter(new IdempotencyGatewayFilter(settings, config), ORDER);
	}

	/** The route's settings, checked when the route is built so that a bad value fails there. */
	private IdempotentEndpoint settings(Config config) {
		try {
			return new IdempotentEndpoint("", config.getScope(), config.isRequired(),
					duration(config.getTtl(), this.defaults.ttl(), "ttl"),
					duration(config.getLeaseTtl(), this.defaults.leaseTtl(), "leaseTtl"), waitTimeout(config),
					CanonicalBody.pointers(config.getIgnoreFields().toArray(String[]::new)), config.getOnStoreFailure(),
					config.isAttachToStream(), this.defaults.spentKeyRetention(), "Location");
		}
		catch (IllegalArgumentException ex) {
			String route = (config.getRouteId() != null) ? " of route " + config.getRouteId() : "";
			throw new IllegalArgumentException("Idempotency filter" + route + ": " + ex.getMessage(), ex);
		}
	}

	private Duration waitTimeout(Config config) {
		Idempotent.InProgress inProgress = (config.getInProgress() != Idempotent.InProgress.DEFAULT)
				? config.getInProgress() : this.defaults.inProgress();
		return (inProgress == Idempotent.InProgress.WAIT) ? this.defaults.waitTimeout() : Duration.ZERO;
	}

	private static Duration duration(@Nullable String value, Duration fallback, String attribute) {
		Duration duration = (value != null) ? AnnotationDurations.parse(value, attribute) : null;
		return (duration != null) ? duration : fallback;
	}

	/**
	 * The filter of one route. The key space is resolved per request, from the route the gateway
	 * matched, because a filter made in the Java DSL is not told its route's id.
	 */
	private final class IdempotencyGatewayFilter implements GatewayFilter {

		private final IdempotentEndpoint settings;

		private final Config config;

		IdempotencyGatewayFilter(IdempotentEndpoint settings, Config config) {
			this.settings = settings;
			this.config = config;
		}

		@Override
		public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
			ReactiveIdempotencyEngine engine = IdempotencyGatewayFilterFactory.this.idempotency;
			if (engine.isStatusLookup(exchange.getRequest())) {
				// A route on the status path (where no IdempotencyWebFilter answered first): never the upstream.
				return engine.lookUpStatus(exchange);
			}
			if (!this.settings.required() && engine.canSkip(exchange.getRequest())) {
				return chain.filter(exchange);
			}
			String routeId = routeId(exchange);
			IdempotentEndpoint endpoint = this.settings.withRoute(routeId);
			return engine.handle(exchange, endpoint, chain::filter, IdempotencyGatewayFilter::keepUpstream);
		}

		/**
		 * A recorded stream goes on when its client leaves: {@link NettyWriteResponseFilter} closes the
		 * upstream connection when the client's exchange is cancelled, and the upstream's body then ends
		 * as if the stream were complete. Without the connection in the exchange, that clean-up has
		 * nothing to close; the recording reads the body to its end (the connection then goes back to
		 * the pool) or, past {@code stream.max-duration} with nobody listening, cancels it (which closes
		 * it).
		 */
		private static void keepUpstream(ServerWebExchange exchange) {
			exchange.getAttributes().remove(ServerWebExchangeUtils.CLIENT_RESPONSE_CONN_ATTR);
		}

		private String routeId(ServerWebExchange exchange) {
			Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
			if (route != null) {
				return route.getId();
			}
			String configured = this.config.getRouteId();
			return (configured != null) ? configured : exchange.getRequest().getPath().pathWithinApplication().value();
		}

		@Override
		public String toString() {
			return GatewayToStringStyler.filterToStringCreator(IdempotencyGatewayFilterFactory.this)
				.append("scope", this.settings.scopeName())
				.append("required", this.settings.required())
				.append("ttl", this.settings.ttl())
				.toString();
		}

	}

	/**
	 * A route's settings, named and read as the attributes of {@link Idempotent @Idempotent}: unset
	 * (or empty) means the global property. Setters return the configuration, for the Java DSL.
	 */
	public static class Config implements HasRouteId {

		private @Nullable String routeId;

		private String scope = "";

		private boolean required;

		private @Nullable String ttl;

		private @Nullable String leaseTtl;

		private Idempotent.InProgress inProgress = Idempotent.InProgress.DEFAULT;

		private List<String> ignoreFields = new ArrayList<>();

		private Idempotent.StoreFailure onStoreFailure = Idempotent.StoreFailure.REJECT;

		private boolean attachToStream = true;

		@Override
		public void setRouteId(String routeId) {
			this.routeId = routeId;
		}

		@Override
		public @Nullable String getRouteId() {
			return this.routeId;
		}

		/** {@return the key space's name; empty means the route's id} */
		public String getScope() {
			return this.scope;
		}

		/**
		 * @param scope the key space's name; empty means the route's id
		 * @return this configuration
		 */
		public Config setScope(@Nullable String scope) {
			this.scope = (scope != null) ? scope.trim() : "";
			return this;
		}

		/** {@return whether a request without a key is refused with 400 {@code idempotency_key_missing}} */
		public boolean isRequired() {
			return this.required;
		}

		/**
		 * @param required whether a request without a key is refused
		 * @return this configuration
		 */
		public Config setRequired(boolean required) {
			this.required = required;
			return this;
		}

		/** {@return how long a completed response is kept ({@code 24h}, {@code PT5M}); unset: the global ttl} */
		public @Nullable String getTtl() {
			return this.ttl;
		}

		/**
		 * @param ttl how long a completed response is kept; empty means the global {@code ttl}
		 * @return this configuration
		 */
		public Config setTtl(@Nullable String ttl) {
			this.ttl = ttl;
			return this;
		}

		/** {@return how long a lease lasts without a heartbeat; unset: the global lease-ttl} */
		public @Nullable String getLeaseTtl() {
			return this.leaseTtl;
		}

		/**
		 * @param leaseTtl how long a lease lasts without a heartbeat; empty means the global
		 * {@code lease-ttl}
		 * @return this configuration
		 */
		public Config setLeaseTtl(@Nullable String leaseTtl) {
			this.leaseTtl = leaseTtl;
			return this;
		}

		/** {@return what a duplicate gets while the first request runs} */
		public Idempotent.InProgress getInProgress() {
			return this.inProgress;
		}

		/**
		 * @param inProgress what a duplicate gets while the first request runs; {@code DEFAULT} means
		 * the global {@code in-progress}
		 * @return this configuration
		 */
		public Config setInProgress(Idempotent.InProgress inProgress) {
			this.inProgress = inProgress;
			return this;
		}

		/** {@return the JSON Pointers left out of the fingerprint} */
		public List<String> getIgnoreFields() {
			return this.ignoreFields;
		}

		/**
		 * @param ignoreFields JSON Pointers (RFC 6901) of body members left out of the fingerprint
		 * @return this configuration
		 */
		public Config setIgnoreFields(List<String> ignoreFields) {
			this.ignoreFields = new ArrayList<>(ignoreFields);
			return this;
		}

		/** {@return what happens when the store cannot be reached before the upstream is called} */
		public Idempotent.StoreFailure getOnStoreFailure() {
			return this.onStoreFailure;
		}

		/**
		 * @param onStoreFailure {@code REJECT} (503) or {@code PROCEED} (call the upstream unprotected)
		 * @return this configuration
		 */
		public Config setOnStoreFailure(Idempotent.StoreFailure onStoreFailure) {
			this.onStoreFailure = onStoreFailure;
			return this;
		}

		/** {@return whether a duplicate attaches to a stream still being recorded} */
		public boolean isAttachToStream() {
			return this.attachToStream;
		}

		/**
		 * @param attachToStream whether a duplicate attaches to a stream still being recorded
		 * @return this configuration
		 */
		public Config setAttachToStream(boolean attachToStream) {
			this.attachToStream = attachToStream;
			return this;
		}

	}

}
