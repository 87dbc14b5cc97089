package dev.modelgate.sample.chat;

import java.util.Optional;

import dev.modelgate.sample.cache.CacheStatus;
import dev.modelgate.sample.cache.ResponseCache;
import dev.modelgate.sample.cache.ResponseCacheKey;
import dev.modelgate.sample.provider.ChatCompletionProvider;
import dev.modelgate.sample.provider.ProviderResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Service;

/**
 * Answers a chat-completion request from the response cache when it can, from the provider
 * otherwise. Only deterministic requests ({@code temperature} 0) are cached, per client, and only
 * successful answers are kept.
 */
@Service
public class ChatCompletionService {

	private final ChatCompletionProvider provider;

	private final ResponseCache cache;

	public ChatCompletionService(ChatCompletionProvider provider, ResponseCache cache) {
		this.provider = provider;
		this.cache = cache;
	}

	/**
	 * @param request the checked request
	 * @param authorization the client's {@code Authorization} header, or {@code null}; it separates
	 * one client's cache from another's
	 * @return the answer
	 */
	public ChatCompletionResult complete(ChatCompletionRequest request, String authorization) {
		if (!request.isDeterministic()) {
			return new ChatCompletionResult(this.provider.complete(request.body()), CacheStatus.BYPASS);
		}
		String key = ResponseCacheKey.of(authorization, request.body());
		Optional<byte[]> cached = this.cache.get(key);
		if (cached.isPresent()) {
			return new ChatCompletionResult(cachedResponse(cached.get()), CacheStatus.HIT);
		}
		ProviderResponse response = this.provider.complete(request.body());
		if (response.status().value() == HttpStatus.OK.value()) {
			this.cache.put(key, response.body());
		}
		return new ChatCompletionResult(response, CacheStatus.MISS);
	}

	private static ProviderResponse cachedResponse(byte[] body) {
		HttpHeaders headers = new HttpHeaders();
		headers.setContentType(MediaType.APPLICATION_JSON);
		return new ProviderResponse(HttpStatus.OK, headers, body);
	}

}
