package dev.modelgate.sample.gateway;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The official OpenAI Java client pointed at the gateway route, with an {@code Idempotency-Key} as an
 * extra header: whole and streamed, the retry gets the first answer and the upstream is called once.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "modelgate.provider.api-key=test-provider-key")
class OpenAiJavaClientThroughTheRouteTests {

	static {
		GatewayBlockHound.install();
	}

	static final CountingUpstream upstream = CountingUpstream.shared();

	@LocalServerPort
	int port;

	private OpenAIClient client;

	@DynamicPropertySource
	static void upstreamProvider(DynamicPropertyRegistry registry) {
		registry.add("modelgate.provider.base-url", upstream::baseUrl);
	}

	@BeforeEach
	void connect() {
		upstream.reset();
		this.client = OpenAIOkHttpClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port + "/v1")
			.apiKey("sk-openai-java-through-the-route")
			.maxRetries(0)
			.build();
	}

	@AfterEach
	void close() {
		this.client.close();
	}

	@Test
	void retryOfACompletionGetsTheFirstAnswer() {
		ChatCompletionCreateParams params = params("Pay once");
		HttpResponseFor<ChatCompletion> first = this.client.chat().completions().withRawResponse().create(params);
		HttpResponseFor<ChatCompletion> retry = this.client.chat().completions().withRawResponse().create(params);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().values("Idempotent-Replayed")).isEmpty();
		assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
		assertThat(retry.parse().id()).isEqualTo(first.parse().id()).isEqualTo("chatcmpl-upstream-1");
		assertThat(retry.parse().choices().get(0).message().content()).hasValue("Answer 1");
		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().authorization()).isEqualTo("Bearer test-provider-key");
	}

	@Test
	void retryOfAStreamGetsTheSameChunks() {
		String id = "chatcmpl-" + UUID.randomUUID();
		upstream.streamWith(Chunks.chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				Chunks.chunk(id, "{\"content\":\"Streamed\"}", null),
				Chunks.chunk(id, "{\"content\":\" once\"}", null),
				Chunks.chunk(id, "{}", "\"stop\""), "[DONE]");
		ChatCompletionCreateParams params = params("Stream once");

		HttpResponseFor<StreamResponse<ChatCompletionChunk>> first = this.client.chat()
			.completions()
			.withRawResponse()
			.createStreaming(params);
		List<ChatCompletionChunk> firstChunks = readAll(first);
		HttpResponseFor<StreamResponse<ChatCompletionChunk>> retry = this.client.chat()
			.completions()
			.withRawResponse()
			.createStreaming(params);
		List<ChatCompletionChunk> retryChunks = readAll(retry);

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(first.headers().values("Idempotent-Replayed")).isEmpty();
		assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
		assertThat(firstChunks).hasSize(4).extracting(ChatCompletionChunk::id).containsOnly(id);
		assertThat(retryChunks).isEqualTo(firstChunks);
		StringBuilder content = new StringBuilder();
		retryChunks.forEach((chunk) -> chunk.choices().forEach((choice) -> choice.delta().content().ifPresent(content::append)));
		assertThat(content).hasToString("Streamed once");
		assertThat(upstream.calls()).isEqualTo(1);
	}

	/**
	 * A model that thinks 3 s before its first token; the client gives up after 0.5 s and retries with
	 * the same key: the retry waits for the stream to begin and attaches, one upstream call.
	 */
	@Test
	void retryBeforeTheFirstTokenOfAThinkingModelGetsTheWholeStreamOnce() throws Exception {
		String id = "chatcmpl-" + UUID.randomUUID();
		upstream.streamWith(Chunks.chunk(id, "{\"role\":\"assistant\",\"content\":\"\"}", null),
				Chunks.chunk(id, "{\"content\":\"Thought\"}", null),
				Chunks.chunk(id, "{}", "\"stop\""), "[DONE]");
		CountDownLatch thinking = upstream.holdAnswers();
		ScheduledExecutorService model = Executors.newSingleThreadScheduledExecutor();
		model.schedule(thinking::countDown, 3, TimeUnit.SECONDS);
		ChatCompletionCreateParams params = params("Think first");
		OpenAIClient impatient = OpenAIOkHttpClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port + "/v1")
			.apiKey("sk-openai-java-through-the-route")
			.timeout(Duration.ofMillis(500))
			.maxRetries(0)
			.build();
		OpenAIClient patient = OpenAIOkHttpClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port + "/v1")
			.apiKey("sk-openai-java-through-the-route")
			.timeout(Duration.ofSeconds(30))
			.maxRetries(0)
			.build();
		try {
			assertThatThrownBy(() -> readAll(impatient.chat().completions().withRawResponse().createStreaming(params)))
				.as("the first attempt timed out")
				.isInstanceOf(RuntimeException.class);

			HttpResponseFor<StreamResponse<ChatCompletionChunk>> retry = patient.chat()
				.completions()
				.withRawResponse()
				.createStreaming(params);
			List<ChatCompletionChunk> chunks = readAll(retry);

			assertThat(retry.statusCode()).isEqualTo(200);
			assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
			assertThat(chunks).hasSize(3).extracting(ChatCompletionChunk::id).containsOnly(id);
			assertThat(upstream.calls()).isEqualTo(1);
		}
		finally {
			thinking.countDown();
			impatient.close();
			patient.close();
			model.shutdownNow();
		}
	}

	private static ChatCompletionCreateParams params(String prompt) {
		return ChatCompletionCreateParams.builder()
			.model("gpt-4o-mini")
			.addUserMessage(prompt + " " + UUID.randomUUID())
			.putAdditionalHeader("Idempotency-Key", "openai-java-" + UUID.randomUUID())
			.build();
	}

	private static List<ChatCompletionChunk> readAll(HttpResponseFor<StreamResponse<ChatCompletionChunk>> response) {
		try (StreamResponse<ChatCompletionChunk> stream = response.parse()) {
			return stream.stream().toList();
		}
	}

}
