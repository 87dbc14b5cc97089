package dev.modelgate.sample;

import java.util.List;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official OpenAI Java client against the gateway and its mock provider, whole and streamed: what
 * an application written for OpenAI gets when it points its base URL at the gateway.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class OpenAiJavaClientTests {

	@LocalServerPort
	int port;

	OpenAIClient client;

	@BeforeEach
	void connect() {
		this.client = openAiClient(this.port);
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	/** A client as an application configures it: base URL and API key (sent as a Bearer token). */
	static OpenAIClient openAiClient(int port) {
		return OpenAIOkHttpClient.builder()
			.baseUrl("http://127.0.0.1:" + port + "/v1")
			.apiKey("sk-openai-java-tests")
			.maxRetries(0)
			.build();
	}

	static ChatCompletionCreateParams params(String prompt) {
		return ChatCompletionCreateParams.builder().model("gpt-4o-mini").addUserMessage(prompt).build();
	}

	@Test
	void createsChatCompletion() {
		ChatCompletion completion = this.client.chat().completions().create(params("Hello from openai-java"));

		assertThat(completion.id()).startsWith("chatcmpl-");
		assertThat(completion.model()).isEqualTo("gpt-4o-mini");
		assertThat(completion.choices()).hasSize(1);
		assertThat(completion.choices().get(0).message().content()).contains("Echo: Hello from openai-java");
		assertThat(completion.choices().get(0).finishReason()).isEqualTo(ChatCompletion.Choice.FinishReason.STOP);
		assertThat(completion.usage()).hasValueSatisfying((usage) -> assertThat(usage.totalTokens()).isPositive());
	}

	@Test
	void streamsChatCompletionChunks() {
		List<ChatCompletionChunk> chunks;
		try (StreamResponse<ChatCompletionChunk> stream = this.client.chat()
			.completions()
			.createStreaming(params("Stream to openai-java"))) {
			chunks = stream.stream().toList();
		}

		assertThat(chunks).hasSizeGreaterThanOrEqualTo(5);
		assertThat(chunks).extracting(ChatCompletionChunk::id).containsOnly(chunks.get(0).id());
		assertThat(chunks.get(0).choices().get(0).delta().role()).hasValue(ChatCompletionChunk.Choice.Delta.Role.ASSISTANT);
		StringBuilder content = new StringBuilder();
		chunks.forEach((chunk) -> chunk.choices().forEach((choice) -> choice.delta().content().ifPresent(content::append)));
		assertThat(content).hasToString("Echo: Stream to openai-java");
		assertThat(chunks.get(chunks.size() - 1).choices().get(0).finishReason())
			.hasValue(ChatCompletionChunk.Choice.FinishReason.STOP);
	}

}
