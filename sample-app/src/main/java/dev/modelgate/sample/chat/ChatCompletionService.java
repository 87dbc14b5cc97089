package dev.modelgate.sample.chat;

import java.util.Optional;

import dev.modelgate.sample.ClientIdentity;
import dev.modelgate.sample.billing.CreditLedger;
import dev.modelgate.sample.cache.CacheStatus;
import dev.modelgate.sample.cache.ResponseCache;
import dev.modelgate.sample.cache.ResponseCacheKey;
import dev.modelgate.sample.provider.ChatCompletionProvider;
import dev.modelgate.sample.provider.ProviderResponse;
import dev.modelgate.sample.provider.StreamStart;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Answers a chat-completion request from the response cache when it can, from the provider
 * otherwise. Only deterministic requests ({@code temperature} 0) are cached, per client, and only
 * successful answers are kept. Every whole answer that took a model call is charged to the client's
 * credits (a cache hit or an idempotent replay costs nothing). Streams bypass the cache and are not
 * charged: their usage is known only at their end, if the provider reports it at all.
 */
@Service
public class ChatCompletionService {

	private final ChatCompletionProvider provider;

	private final ResponseCache cache;

	private final CreditLedger ledger;

	public ChatCompletionService(ChatCompletionProvider provider, ResponseCache cache, CreditLedger ledger) {
		this.provider = provider;
		this.cache = cache;
		this.ledger = ledger;
	}

	/**
	 * @param request the checked request
	 * @param authorization the client's {@code Authorization} header, or {@code null}; it separates
	 * one client's cache from another's
	 * @return the answer
	 */
	public ChatCompletionResult complete(ChatCompletionRequest request, String authorization) {
		if (!request.isDeterministic()) {
			return new ChatCompletionResult(charged(this.provider.complete(request.body()), authorization),
					CacheStatus.BYPASS);
		}
		String key = ResponseCacheKey.of(authorization, request.body());
		Optional<byte[]> cached = this.cache.get(key);
		if (cached.isPresent()) {
			return new ChatCompletionResult(cachedResponse(cached.get()), CacheStatus.HIT);
		}
		ProviderResponse response = charged(this.provider.complete(request.body()), authorization);
		if (response.status().value() == HttpStatus.OK.value()) {
			this.cache.put(key, response.body());
		}
		return new ChatCompletionResult(response, CacheStatus.MISS);
	}

	/**
	 * Starts a streamed answer, always from the provider: a stream is never cached.
	 * @param request the checked request, with {@code "stream": true}
	 * @return the provider's stream, or its whole answer (a 4xx) to pass on
	 */
	public StreamStart stream(ChatCompletionRequest request) {
		return this.provider.stream(request.body());
	}

	/** Charges the answer's {@code usage.total_tokens} (at least one credit) when the model answered. */
	private ProviderResponse charged(ProviderResponse response, String authorization) {
		if (response.status().value() == HttpStatus.OK.value()) {
			this.ledger.charge(ClientIdentity.of(authorization), Math.max(1, totalTokens(response.body())));
		}
		return response;
	}

	private static long totalTokens(byte[] body) {
		try {
			return JsonMapper.shared().readTree(body).path("usage").path("total_tokens").asLong(0);
		}
		catch (JacksonException ex) {
			return 0;
		}
	}

	private static ProviderResponse cachedResponse(byte[] body) {
		HttpHeaders headers = new HttpHeaders();
		headers.setContentType(MediaType.APPLICATION_JSON);
		return new ProviderResponse(HttpStatus.OK, headers, body);
	}

}
