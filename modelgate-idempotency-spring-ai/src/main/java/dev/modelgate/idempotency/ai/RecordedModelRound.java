package dev.modelgate.idempotency.ai;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import dev.modelgate.idempotency.core.ResultCodec;

/**
 * What the store keeps of a model round: per generation the answer's text, its tool calls (id, type,
 * name, arguments) and its finish reason, as JSON. Usage and other metadata are not kept: a replayed
 * round cost nothing.
 */
final class RecordedModelRound {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	static final ResultCodec<ChatResponse> CODEC = new ResultCodec<>() {

		@Override
		public byte[] encode(ChatResponse response) {
			ObjectNode round = JSON.createObjectNode();
			ArrayNode generations = round.putArray("generations");
			for (Generation generation : response.getResults()) {
				ObjectNode recorded = generations.addObject();
				AssistantMessage answer = generation.getOutput();
				recorded.put("text", answer.getText());
				recorded.put("finishReason", generation.getMetadata().getFinishReason());
				ArrayNode calls = recorded.putArray("toolCalls");
				for (AssistantMessage.ToolCall call : answer.getToolCalls()) {
					calls.addObject()
						.put("id", call.id())
						.put("type", call.type())
						.put("name", call.name())
						.put("arguments", call.arguments());
				}
			}
			return JSON.writeValueAsBytes(round);
		}

		@Override
		public ChatResponse decode(byte[] bytes) {
			JsonNode round = JSON.readTree(bytes);
			List<Generation> generations = new ArrayList<>();
			for (JsonNode recorded : round.path("generations")) {
				List<AssistantMessage.ToolCall> calls = new ArrayList<>();
				for (JsonNode call : recorded.path("toolCalls")) {
					calls.add(new AssistantMessage.ToolCall(call.path("id").asString(), call.path("type").asString(),
							call.path("name").asString(), call.path("arguments").asString()));
				}
				AssistantMessage answer = AssistantMessage.builder()
					.content(text(recorded.path("text")))
					.toolCalls(calls)
					.build();
				generations.add(new Generation(answer,
						ChatGenerationMetadata.builder().finishReason(text(recorded.path("finishReason"))).build()));
			}
			return new ChatResponse(generations);
		}

	};

	private RecordedModelRound() {
	}

	private static @Nullable String text(JsonNode node) {
		return (node.isMissingNode() || node.isNull()) ? null : node.asString();
	}

}
