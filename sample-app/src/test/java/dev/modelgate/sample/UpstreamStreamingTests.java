package dev.modelgate.sample;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code "stream": true} relayed from a real (stubbed) OpenAI-compatible provider, event by event.
 */
class UpstreamStreamingTests extends StubbedProviderTests {

	private static final String STREAM = "\"stream\":true";

	private static final List<String> CHUNKS = List.of(chunk("{\"role\":\"assistant\",\"content\":\"\"}", null),
			chunk("{\"content\":\"Hello\"}", null), chunk("{\"content\":\" there\"}", null), chunk("{}", "\"stop\""));

	@Test
	void relaysEachUpstreamChunkAsItArrives() {
		upstream.streamWith(Duration.ofMillis(150), withDone(CHUNKS));

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.contentType()).startsWith("text/event-stream");
		assertThat(answer.data()).containsExactly(withDone(CHUNKS));
		// Relayed one by one, the five events arrive over the stub's four pauses after the first.
		assertThat(answer.spreadMillis()).isGreaterThanOrEqualTo(450);
		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().authorization()).isEqualTo("Bearer test-provider-key");
		assertThat(JsonMapper.shared().readTree(upstream.lastCall().body()).path("stream").asBoolean()).isTrue();
	}

	@Test
	void forwardsAKeyDerivedFromAKeyedStreamingRequest() {
		upstream.streamWith(Duration.ofMillis(10), withDone(CHUNKS));
		String key = java.util.UUID.randomUUID().toString();

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM), "Idempotency-Key", key);
		StreamedAnswer unkeyed = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(unkeyed.status()).isEqualTo(200);
		assertThat(upstream.received()).hasSize(2);
		assertThat(upstream.received().get(0).idempotencyKey()).isNotNull().isNotEqualTo(key);
		assertThat(upstream.received().get(1).idempotencyKey()).isNull();
	}

	@Test
	void relaysStreamLongerThanTheProviderTimeout() {
		// The timeout (1s here) bounds the wait for the stream to begin, not how long it may last.
		upstream.streamWith(Duration.ofMillis(300), withDone(CHUNKS));

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.data()).containsExactly(withDone(CHUNKS));
	}

	@Test
	void passesThroughUpstream4xxBeforeTheStreamWithItsBody() {
		String body = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}";
		upstream.answerWith(429, body, "Retry-After", "7");

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(429);
		assertThat(answer.contentType()).startsWith("application/json");
		assertThat(answer.data()).containsExactly(body);
	}

	@Test
	void passesOnWholeAnswerOfUpstreamThatDoesNotStream() {
		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.contentType()).startsWith("application/json");
		assertThat(answer.data().get(0)).startsWith("{\"id\":\"chatcmpl-stub-1\"");
	}

	@Test
	void turnsUpstream500BeforeTheStreamInto502OpenAiError() {
		upstream.answerWith(500, "{\"error\":{\"message\":\"internal details\"}}");

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(502);
		JsonNode error = JsonMapper.shared().readTree(answer.data().get(0)).path("error");
		assertThat(error.path("type").asString()).isEqualTo("upstream_error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_server_error");
		assertThat(error.path("message").asString()).doesNotContain("internal details");
	}

	@Test
	void turnsUpstreamTimeoutBeforeTheStreamInto502OpenAiError() {
		upstream.delayAnswers(Duration.ofSeconds(3));
		upstream.streamWith(Duration.ZERO, withDone(CHUNKS));

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(502);
		JsonNode error = JsonMapper.shared().readTree(answer.data().get(0)).path("error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_timeout");
	}

	@Test
	void endsStreamBrokenMidwayWithAnErrorEvent() {
		upstream.streamWith(Duration.ofMillis(20), CHUNKS.get(0), CHUNKS.get(1));

		StreamedAnswer answer = this.gateway.stream(chatRequest(STREAM));

		assertThat(answer.status()).isEqualTo(200);
		assertThat(answer.data()).hasSize(3).startsWith(CHUNKS.get(0), CHUNKS.get(1)).doesNotContain("[DONE]");
		JsonNode error = JsonMapper.shared().readTree(answer.data().get(2)).path("error");
		assertThat(error.path("type").asString()).isEqualTo("upstream_error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_stream_interrupted");
		assertThat(error.path("message").asString()).isNotBlank();
	}

	@Test
	void stopsReadingUpstreamWhenTheClientGoesAway() throws Exception {
		String[] events = new String[50];
		Arrays.fill(events, CHUNKS.get(1));
		upstream.streamWith(Duration.ofMillis(50), events);

		this.gateway.streamFirstEventThenHangUp(chatRequest(STREAM));

		// The 50 events would take 2.5s to write; the gateway hangs up on the stub well before.
		await().atMost(Duration.ofSeconds(2)).until(() -> upstream.streamsCutOff() > 0);
		assertThat(upstream.streamsCutOff()).isEqualTo(1);
	}

	private static String chunk(String delta, String finishReason) {
		return "{\"id\":\"chatcmpl-stub-stream\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
				+ "\"model\":\"stub-model\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
				+ finishReason + "}]}";
	}

	private static String[] withDone(List<String> chunks) {
		String[] events = chunks.toArray(new String[chunks.size() + 1]);
		events[chunks.size()] = "[DONE]";
		return events;
	}

}
