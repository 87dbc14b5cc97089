package dev.modelgate.idempotency.ai;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** What the store keeps of a model round, without a JSON library, the same on both Spring AI lines. */
class RecordedModelRoundTests {

	@Test
	void keepsTheTextTheToolCallsAndTheFinishReasonOfEachGeneration() {
		AssistantMessage asking = AssistantMessage.builder()
			.content(null)
			.toolCalls(List.of(new AssistantMessage.ToolCall("call_1", "function", "send_email", "{\"to\":\"ann\"}"),
					new AssistantMessage.ToolCall("call_2", "function", "lookup_order", "{\"id\":\"42 ünïcode\"}")))
			.build();
		AssistantMessage answering = AssistantMessage.builder().content("done: mail-1, ✓").build();
		ChatResponse response = new ChatResponse(List.of(
				new Generation(asking, ChatGenerationMetadata.builder().finishReason("tool_calls").build()),
				new Generation(answering, ChatGenerationMetadata.builder().finishReason(null).build())));

		ChatResponse replayed = RecordedModelRound.CODEC.decode(RecordedModelRound.CODEC.encode(response));

		assertThat(replayed.getResults()).hasSize(2);
		Generation first = replayed.getResults().get(0);
		assertThat(first.getOutput().getToolCalls()).isEqualTo(asking.getToolCalls());
		assertThat(first.getMetadata().getFinishReason()).isEqualTo("tool_calls");
		assertThat(replayed.hasToolCalls()).isTrue();
		Generation second = replayed.getResults().get(1);
		assertThat(second.getOutput().getText()).isEqualTo("done: mail-1, ✓");
		assertThat(second.getOutput().getToolCalls()).isEmpty();
		assertThat(second.getMetadata().getFinishReason()).isNull();
	}

	@Test
	void refusesWhatItDidNotWrite() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RecordedModelRound.CODEC.decode("{\"generations\":[]}".getBytes(StandardCharsets.UTF_8)));
		assertThatIllegalArgumentException().isThrownBy(() -> RecordedModelRound.CODEC.decode(new byte[] { 1, 0, 0 }));
	}

}
