package dev.modelgate.sample;

import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.promptRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code "stream": true} answered by the mock provider: OpenAI chat-completion chunks, word by word,
 * each sent as it is produced.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class MockStreamingTests {

	/** Nine words, so ten in the reply: with the default 20ms before each, at least 200ms to produce it. */
	private static final String PROMPT = "one two three four five six seven eight nine";

	@LocalServerPort
	int port;

	GatewayClient gateway;

	@BeforeEach
	void connect() {
		this.gateway = new GatewayClient(this.port);
	}

	@Test
	void streamsOpenAiChunksEndingWithDone() {
		StreamedAnswer answer = this.gateway.stream(promptRequest(PROMPT, "\"stream\":true"));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.contentType()).startsWith("text/event-stream");
		assertThat(answer.data()).last().isEqualTo("[DONE]");
		List<JsonNode> chunks = answer.chunks();
		assertThat(chunks).allSatisfy((chunk) -> {
			assertThat(chunk.path("object").asString()).isEqualTo("chat.completion.chunk");
			assertThat(chunk.path("id").asString()).startsWith("chatcmpl-").isEqualTo(chunks.get(0).path("id").asString());
			assertThat(chunk.path("created").asLong()).isPositive();
			assertThat(chunk.path("model").asString()).isEqualTo("gpt-4o-mini");
			assertThat(chunk.path("choices").path(0).path("index").asInt()).isZero();
		});
		assertThat(chunks.get(0).path("choices").path(0).path("delta").path("role").asString()).isEqualTo("assistant");
		JsonNode last = chunks.get(chunks.size() - 1).path("choices").path(0);
		assertThat(last.path("finish_reason").asString()).isEqualTo("stop");
		assertThat(last.path("delta").isEmpty()).isTrue();
		assertThat(chunks.subList(0, chunks.size() - 1))
			.allSatisfy((chunk) -> assertThat(chunk.path("choices").path(0).path("finish_reason").isNull()).isTrue());
	}

	@Test
	void streamedDeltasAddUpToTheWholeAnswer() {
		String whole = json(this.gateway.chat(promptRequest(PROMPT))).path("choices").path(0).path("message")
			.path("content").asString();

		StreamedAnswer answer = this.gateway.stream(promptRequest(PROMPT, "\"stream\":true"));

		assertThat(answer.content()).isEqualTo(whole).isEqualTo("Echo: " + PROMPT);
		assertThat(answer.chunks()).hasSizeGreaterThanOrEqualTo(12);
	}

	@Test
	void sendsUsageInALastChunkWithoutChoicesWhenAsked() {
		StreamedAnswer answer = this.gateway.stream(
				promptRequest(PROMPT, "\"stream\":true", "\"stream_options\":{\"include_usage\":true}"));

		List<JsonNode> chunks = answer.chunks();
		JsonNode usage = chunks.get(chunks.size() - 1);
		assertThat(usage.path("choices").isArray()).isTrue();
		assertThat(usage.path("choices").isEmpty()).isTrue();
		// The mock counts words: nine in the prompt, ten in the reply.
		assertThat(usage.path("usage").path("total_tokens").asInt()).isEqualTo(19);
		assertThat(chunks.get(chunks.size() - 2).path("choices").path(0).path("finish_reason").asString()).isEqualTo("stop");
		assertThat(answer.content()).isEqualTo("Echo: " + PROMPT);
		assertThat(answer.data()).last().isEqualTo("[DONE]");
	}

	@Test
	void sendsEachChunkAsSoonAsItIsProduced() {
		StreamedAnswer answer = this.gateway.stream(promptRequest(PROMPT, "\"stream\":true"));

		// All at once, the first and the last event would arrive together; one by one, 200ms apart.
		assertThat(answer.spreadMillis()).isGreaterThanOrEqualTo(150);
	}

	@Test
	void streamsDeterministicRequestPastTheCache() {
		String request = promptRequest("Cache me not", "\"stream\":true", "\"temperature\":0");

		StreamedAnswer first = this.gateway.stream(request);
		StreamedAnswer second = this.gateway.stream(request);

		assertThat(first.cacheStatus()).isEqualTo("BYPASS");
		assertThat(second.cacheStatus()).isEqualTo("BYPASS");
		assertThat(second.chunks().get(0).path("id")).isNotEqualTo(first.chunks().get(0).path("id"));
		assertThat(second.content()).isEqualTo(first.content());
	}

	@Test
	void streamsAnswerOfMultiByteCharactersIntact() {
		StreamedAnswer answer = this.gateway.stream(promptRequest("clé ключ 鍵", "\"stream\":true"));

		assertThat(answer.content()).isEqualTo("Echo: clé ключ 鍵");
	}

}
