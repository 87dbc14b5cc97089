package dev.modelgate.sample.chat;

import dev.modelgate.sample.cache.CacheStatus;
import dev.modelgate.sample.provider.ProviderResponse;

import org.springframework.http.ResponseEntity;

/**
 * An answer to a chat-completion request and where it came from.
 *
 * @param response the provider's answer, fresh or cached
 * @param cacheStatus what the response cache did
 */
public record ChatCompletionResult(ProviderResponse response, CacheStatus cacheStatus) {

	public ResponseEntity<byte[]> toResponseEntity() {
		return ResponseEntity.status(this.response.status())
			.headers(this.response.headers())
			.header(CacheStatus.HEADER, this.cacheStatus.name())
			.body(this.response.body());
	}

}
