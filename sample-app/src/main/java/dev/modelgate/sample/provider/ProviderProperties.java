package dev.modelgate.sample.provider;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Where the gateway sends chat completions.
 */
@ConfigurationProperties("modelgate.provider")
public class ProviderProperties {

	/**
	 * Base URL of an OpenAI-compatible API, for example http://127.0.0.1:9000/v1; requests go to
	 * {base-url}/chat/completions. Unset, the built-in mock provider answers.
	 */
	private String baseUrl;

	/**
	 * API key sent to the provider as a Bearer token. The clients' own Authorization headers are never
	 * forwarded.
	 */
	private String apiKey;

	/**
	 * How long to wait for a connection to the provider.
	 */
	private Duration connectTimeout = Duration.ofSeconds(5);

	/**
	 * How long to wait for the provider's answer, or for its stream to begin; past it the client gets
	 * 502 upstream_timeout.
	 */
	private Duration timeout = Duration.ofSeconds(60);

	private final Mock mock = new Mock();

	public String getBaseUrl() {
		return this.baseUrl;
	}

	public void setBaseUrl(String baseUrl) {
		this.baseUrl = baseUrl;
	}

	public String getApiKey() {
		return this.apiKey;
	}

	public void setApiKey(String apiKey) {
		this.apiKey = apiKey;
	}

	public Duration getConnectTimeout() {
		return this.connectTimeout;
	}

	public void setConnectTimeout(Duration connectTimeout) {
		this.connectTimeout = connectTimeout;
	}

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public Mock getMock() {
		return this.mock;
	}

	/**
	 * The built-in mock provider, which answers when no base URL is set.
	 */
	public static class Mock {

		/**
		 * Pause before each word of a streamed reply, so that a client sees the stream arrive piece by
		 * piece.
		 */
		private Duration chunkDelay = Duration.ofMillis(20);

		public Duration getChunkDelay() {
			return this.chunkDelay;
		}

		public void setChunkDelay(Duration chunkDelay) {
			this.chunkDelay = chunkDelay;
		}

	}

}
