package dev.modelgate.sample;

import com.openai.client.OpenAIClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import org.junit.jupiter.api.Test;

import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code Idempotency-Key} sent by the official OpenAI Java client, as an extra header of the request:
 * a retry gets the first answer back, and the provider is called once.
 */
class OpenAiJavaClientIdempotencyTests extends StubbedProviderTests {

	@Test
	void replaysFirstAnswerToRetryWithTheSameKey() {
		ChatCompletionCreateParams params = OpenAiJavaClientTests.params("Pay once " + newKey()).toBuilder()
			.putAdditionalHeader("Idempotency-Key", newKey())
			.build();
		OpenAIClient client = OpenAiJavaClientTests.openAiClient(this.port);
		try {
			HttpResponseFor<ChatCompletion> first = client.chat().completions().withRawResponse().create(params);
			HttpResponseFor<ChatCompletion> retry = client.chat().completions().withRawResponse().create(params);

			assertThat(first.statusCode()).isEqualTo(200);
			assertThat(first.headers().values("Idempotent-Replayed")).isEmpty();
			assertThat(retry.statusCode()).isEqualTo(200);
			assertThat(retry.headers().values("Idempotent-Replayed")).containsExactly("true");
			assertThat(retry.parse().id()).isEqualTo(first.parse().id()).isEqualTo("chatcmpl-stub-1");
		}
		finally {
			client.close();
		}
		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().authorization()).isEqualTo("Bearer test-provider-key");
	}

}
