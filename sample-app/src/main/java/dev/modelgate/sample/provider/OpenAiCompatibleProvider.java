package dev.modelgate.sample.provider;

import java.net.SocketTimeoutException;
import java.net.http.HttpTimeoutException;

import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

import dev.modelgate.idempotency.client.DerivedIdempotencyKeyInterceptor;

/**
 * Forwards the request to an OpenAI-compatible API ({@code POST {base-url}/chat/completions}) and
 * hands back its answer untouched: whole, or as a stream relayed event by event.
 */
public class OpenAiCompatibleProvider implements ChatCompletionProvider {

	/** The name of the call to the provider within a keyed request, from which its key is derived. */
	static final String CALL = "chat-completion";

	private final RestClient restClient;

	private final UpstreamStreamClient streamClient;

	private final JsonMapper jsonMapper;

	/**
	 * @param restClient a client whose base URL is the provider's, authentication and timeouts set
	 * @param streamClient opens streams on the same provider
	 * @param jsonMapper writes the request body
	 */
	OpenAiCompatibleProvider(RestClient restClient, UpstreamStreamClient streamClient, JsonMapper jsonMapper) {
		this.restClient = restClient;
		this.streamClient = streamClient;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public ProviderResponse complete(ObjectNode request) {
		ProviderResponse response = send(this.jsonMapper.writeValueAsBytes(request));
		if (response.status().is2xxSuccessful() || response.status().is4xxClientError()) {
			return response;
		}
		throw UpstreamFailureException.serverError(response.status());
	}

	@Override
	public StreamStart stream(ObjectNode request) {
		return this.streamClient.open(this.jsonMapper.writeValueAsBytes(request));
	}

	private ProviderResponse send(byte[] body) {
		try {
			return this.restClient.post()
				.uri("/chat/completions")
				// Named, so that the streamed and the whole answer's call of one request share the key.
				.attribute(DerivedIdempotencyKeyInterceptor.CALL, CALL)
				.contentType(MediaType.APPLICATION_JSON)
				.accept(MediaType.APPLICATION_JSON)
				.body(body)
				// exchange rather than retrieve: a 4xx is an answer to pass on, not an exception.
				.exchangeForRequiredValue((clientRequest, clientResponse) -> ProviderResponse
					.of(clientResponse.getStatusCode(), clientResponse.getHeaders(), clientResponse.getBody().readAllBytes()));
		}
		catch (ResourceAccessException ex) {
			throw isTimeout(ex) ? UpstreamFailureException.timeout(ex) : UpstreamFailureException.unreachable(ex);
		}
	}

	private static boolean isTimeout(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException) {
				return true;
			}
		}
		return false;
	}

}
