package dev.modelgate.sample.provider;

import java.time.Clock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpClientSettings;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.util.StringUtils;
import org.springframework.web.client.RestClient;

import dev.modelgate.idempotency.client.DerivedIdempotencyKeyInterceptor;

/**
 * Chooses the provider: the upstream API when {@code modelgate.provider.base-url} is set, the mock
 * otherwise.
 */
@Configuration(proxyBeanMethods = false)
class ProviderConfiguration {

	private static final Log logger = LogFactory.getLog(ProviderConfiguration.class);

	@Bean
	ChatCompletionProvider chatCompletionProvider(ProviderProperties properties, JsonMapper jsonMapper,
			RestClient.Builder restClientBuilder, ClientHttpRequestFactoryBuilder<?> requestFactoryBuilder,
			HttpClientSettings httpClientSettings) {
		if (!StringUtils.hasText(properties.getBaseUrl())) {
			logger.info("No modelgate.provider.base-url set: the built-in mock provider answers chat completions");
			return new MockChatCompletionProvider(jsonMapper, Clock.systemUTC(), properties.getMock().getChunkDelay());
		}
		String baseUrl = withoutTrailingSlash(properties.getBaseUrl());
		HttpClientSettings settings = httpClientSettings.withTimeouts(properties.getConnectTimeout(),
				properties.getTimeout());
		restClientBuilder.baseUrl(baseUrl)
			.requestFactory(requestFactoryBuilder.build(settings))
			// A keyed request's call to the provider carries a key derived from the request's scope: the same
			// when the request runs again after a failure, never the client's own key.
			.requestInterceptor(new DerivedIdempotencyKeyInterceptor());
		if (StringUtils.hasText(properties.getApiKey())) {
			restClientBuilder.defaultHeader(HttpHeaders.AUTHORIZATION, "Bearer " + properties.getApiKey());
		}
		UpstreamStreamClient streamClient = new UpstreamStreamClient(baseUrl, properties.getApiKey(),
				properties.getConnectTimeout(), properties.getTimeout());
		return new OpenAiCompatibleProvider(restClientBuilder.build(), streamClient, jsonMapper);
	}

	/** Both {@code .../v1} and {@code .../v1/} are common spellings of the same base URL. */
	private static String withoutTrailingSlash(String baseUrl) {
		return baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
	}

}
