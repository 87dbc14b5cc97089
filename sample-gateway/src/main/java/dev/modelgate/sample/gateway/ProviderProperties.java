package dev.modelgate.sample.gateway;

import java.net.URI;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The upstream of the chat route, named as in the sample app.
 */
@ConfigurationProperties("modelgate.provider")
public class ProviderProperties {

	/**
	 * Base URL of an OpenAI-compatible API, for example http://127.0.0.1:9000/v1; the route sends
	 * requests to {base-url}/chat/completions. Unset, the built-in mock provider answers.
	 */
	private @Nullable URI baseUrl;

	/**
	 * API key sent to the provider as a Bearer token. The clients' own Authorization headers are never
	 * forwarded; they only tell clients apart.
	 */
	private @Nullable String apiKey;

	public @Nullable URI getBaseUrl() {
		return this.baseUrl;
	}

	public void setBaseUrl(@Nullable URI baseUrl) {
		this.baseUrl = baseUrl;
	}

	public @Nullable String getApiKey() {
		return this.apiKey;
	}

	public void setApiKey(@Nullable String apiKey) {
		this.apiKey = apiKey;
	}

}
