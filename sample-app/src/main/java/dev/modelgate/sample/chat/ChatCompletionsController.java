package dev.modelgate.sample.chat;

import dev.modelgate.idempotency.Idempotent;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The OpenAI-compatible endpoint. By the time a keyed request gets here, the idempotency filter has
 * acquired its key; whatever this returns is recorded for replay (or the key released on a 5xx).
 */
@RestController
public class ChatCompletionsController {

	private final ChatCompletionService service;

	public ChatCompletionsController(ChatCompletionService service) {
		this.service = service;
	}

	@Idempotent
	@PostMapping(path = "/v1/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public ResponseEntity<byte[]> complete(@RequestBody JsonNode body,
			@RequestHeader(name = "${modelgate.idempotency.header-name:Idempotency-Key}",
					required = false) String idempotencyKey,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization) {
		ChatCompletionRequest request = ChatCompletionRequest.of(body);
		if (request.isStream()) {
			throw (idempotencyKey != null) ? InvalidChatRequestException.streamWithIdempotencyKey()
					: InvalidChatRequestException.streamNotSupported();
		}
		return this.service.complete(request, authorization).toResponseEntity();
	}

}
