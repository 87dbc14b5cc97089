package dev.modelgate.sample.provider;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.client.DerivedIdempotencyKeyInterceptor;
import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * Opens streamed completions on an OpenAI-compatible API. It uses the JDK's client directly rather
 * than the {@code RestClient} of whole answers: that client's read timeout bounds the whole body, which
 * would cut every stream longer than {@code modelgate.provider.timeout}. Here the timeout bounds only
 * the wait for the stream to begin; how long it may then last is the relay's business.
 */
final class UpstreamStreamClient {

	private final HttpClient http;

	private final URI endpoint;

	private final String apiKey;

	private final Duration timeout;

	/**
	 * @param baseUrl the provider's base URL, without a trailing slash
	 * @param apiKey sent as a Bearer token, unless empty
	 * @param connectTimeout how long to wait for a connection
	 * @param timeout how long to wait for the stream to begin
	 */
	UpstreamStreamClient(String baseUrl, String apiKey, Duration connectTimeout, Duration timeout) {
		this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout).build();
		this.endpoint = URI.create(baseUrl + "/chat/completions");
		this.apiKey = apiKey;
		this.timeout = timeout;
	}

	/**
	 * @param body the request, with {@code "stream": true}
	 * @return the provider's stream, or its whole answer when it gave one (a 4xx, or no stream)
	 * @throws UpstreamFailureException on a 5xx, a timeout or no connection
	 */
	StreamStart open(byte[] body) {
		HttpResponse<InputStream> response = send(body);
		int status = response.statusCode();
		HttpHeaders headers = headers(response);
		boolean success = status >= 200 && status < 300;
		if (success && isEventStream(headers)) {
			return new StreamStart.Streaming(new UpstreamChunkStream(response.body()));
		}
		try (InputStream answer = response.body()) {
			if (!success && (status < 400 || status >= 500)) {
				throw UpstreamFailureException.serverError(HttpStatusCode.valueOf(status));
			}
			return new StreamStart.Answered(ProviderResponse.of(HttpStatusCode.valueOf(status), headers,
					answer.readAllBytes()));
		}
		catch (IOException ex) {
			throw UpstreamFailureException.unreachable(ex);
		}
	}

	private HttpResponse<InputStream> send(byte[] body) {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.endpoint)
			.timeout(this.timeout)
			.header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE)
			.header(HttpHeaders.ACCEPT, MediaType.TEXT_EVENT_STREAM_VALUE)
			.POST(HttpRequest.BodyPublishers.ofByteArray(body));
		if (StringUtils.hasText(this.apiKey)) {
			request.header(HttpHeaders.AUTHORIZATION, "Bearer " + this.apiKey);
		}
		// The key DerivedIdempotencyKeyInterceptor gives the whole answer's call of the same request.
		IdempotencyContext.current()
			.ifPresent((held) -> request.header(DerivedIdempotencyKeyInterceptor.DEFAULT_HEADER,
					DerivedKeys.uuid(held.scope(), "call", OpenAiCompatibleProvider.CALL)));
		try {
			return this.http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
		}
		catch (HttpTimeoutException ex) {
			throw UpstreamFailureException.timeout(ex);
		}
		catch (IOException ex) {
			throw UpstreamFailureException.unreachable(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw UpstreamFailureException.unreachable(ex);
		}
	}

	private static HttpHeaders headers(HttpResponse<?> response) {
		HttpHeaders headers = new HttpHeaders();
		response.headers().map().forEach(headers::addAll);
		return headers;
	}

	private static boolean isEventStream(HttpHeaders headers) {
		try {
			MediaType type = headers.getContentType();
			return type != null && MediaType.TEXT_EVENT_STREAM.isCompatibleWith(type);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
