package dev.modelgate.sample.gateway;

import java.net.URI;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.GatewayFilterSpec;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;

import dev.modelgate.idempotency.gateway.IdempotencyGatewayFilterFactory;

/**
 * The chat route: {@code POST /v1/chat/completions} to {@code {base-url}/chat/completions}, with the
 * {@code Idempotency} filter first, so that a retried completion is answered from the record
 * instead of calling (and paying) the provider again.
 */
@Configuration(proxyBeanMethods = false)
class ChatRouteConfiguration {

	/** The route's id, which is also its idempotency scope. */
	static final String ROUTE_ID = "chat-completions";

	@Bean
	RouteLocator chatRoute(RouteLocatorBuilder routes, IdempotencyGatewayFilterFactory idempotency,
			ProviderProperties provider) {
		URI baseUrl = provider.getBaseUrl();
		String upstreamPath = (baseUrl != null) ? stripTrailingSlash(baseUrl.getPath()) + "/chat/completions"
				: MockProvider.PATH;
		String upstream = (baseUrl != null) ? origin(baseUrl) : "forward:" + MockProvider.PATH;
		return routes.routes()
			.route(ROUTE_ID, (route) -> route.method(HttpMethod.POST)
				.and()
				.path("/v1/chat/completions")
				.filters((filters) -> credentials(filters.filter(idempotency.apply((config) -> {
				})).setPath(upstreamPath), provider))
				.uri(upstream))
			.build();
	}

	/**
	 * The provider gets the gateway's API key, never the client's: the client's Authorization only
	 * names its key space (the Idempotency filter reads it before this filter replaces it).
	 */
	private static GatewayFilterSpec credentials(GatewayFilterSpec filters, ProviderProperties provider) {
		String apiKey = provider.getApiKey();
		return (apiKey != null && !apiKey.isBlank())
				? filters.setRequestHeader(HttpHeaders.AUTHORIZATION, "Bearer " + apiKey)
				: filters.removeRequestHeader(HttpHeaders.AUTHORIZATION);
	}

	private static String origin(URI baseUrl) {
		return baseUrl.getScheme() + "://" + baseUrl.getRawAuthority();
	}

	private static String stripTrailingSlash(String path) {
		return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
	}

}
