package dev.modelgate.sample.chat;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.sample.cache.CacheStatus;
import dev.modelgate.sample.provider.StreamStart;
import dev.modelgate.sample.stream.StreamRelay;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * The OpenAI-compatible endpoint. By the time a keyed request gets here, the idempotency filter has
 * acquired its key; whatever this returns is recorded for replay (or the key released on a 5xx).
 */
@RestController
public class ChatCompletionsController {

	private final ChatCompletionService service;

	private final StreamRelay relay;

	public ChatCompletionsController(ChatCompletionService service, StreamRelay relay) {
		this.service = service;
		this.relay = relay;
	}

	/**
	 * @return a {@code ResponseEntity<byte[]>} for a whole answer, an {@link SseEmitter} for a stream
	 * (with a key, the idempotency filter records the stream's events, so that a retry replays them,
	 * a duplicate follows them live and {@code Last-Event-ID} resumes after one).
	 * Declared {@code Object} because Spring MVC picks the return value handler by the value's own type:
	 * a declared {@code ResponseEntity<?>} would make it write an emitter as a JSON body.
	 */
	@Idempotent
	@PostMapping(path = "/v1/chat/completions", consumes = MediaType.APPLICATION_JSON_VALUE)
	public Object complete(@RequestBody JsonNode body,
			@RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
			HttpServletResponse response) {
		ChatCompletionRequest request = ChatCompletionRequest.of(body);
		if (request.isStream()) {
			return stream(request, response);
		}
		return this.service.complete(request, authorization).toResponseEntity();
	}


	private Object stream(ChatCompletionRequest request, HttpServletResponse response) {
		StreamStart start = this.service.stream(request);
		if (start instanceof StreamStart.Answered answered) {
			return new ChatCompletionResult(answered.response(), CacheStatus.BYPASS).toResponseEntity();
		}
		SseEmitter emitter = this.relay.relay(((StreamStart.Streaming) start).chunks());
		response.setHeader(CacheStatus.HEADER, CacheStatus.BYPASS.name());
		return emitter;
	}

}
