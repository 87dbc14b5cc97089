package dev.modelgate.idempotency.ai;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

import dev.modelgate.idempotency.core.ResultCodec;

/**
 * What the store keeps of a model round: per generation the answer's text, its tool calls (id, type,
 * name, arguments) and its finish reason. Usage and other metadata are not kept: a replayed round cost
 * nothing. The encoding needs no JSON library, so that it is the same with Spring AI 2 (Jackson 3) and
 * Spring AI 1 (Jackson 2): a format byte, then counts and strings (a length in bytes, {@code -1} for
 * none, then UTF-8).
 */
final class RecordedModelRound {

	private static final int FORMAT = 1;

	static final ResultCodec<ChatResponse> CODEC = new ResultCodec<>() {

		@Override
		public byte[] encode(ChatResponse response) {
			ByteArrayOutputStream bytes = new ByteArrayOutputStream();
			try (DataOutputStream out = new DataOutputStream(bytes)) {
				out.writeByte(FORMAT);
				List<Generation> generations = response.getResults();
				out.writeInt(generations.size());
				for (Generation generation : generations) {
					AssistantMessage answer = generation.getOutput();
					writeText(out, answer.getText());
					writeText(out, generation.getMetadata().getFinishReason());
					List<AssistantMessage.ToolCall> calls = answer.getToolCalls();
					out.writeInt(calls.size());
					for (AssistantMessage.ToolCall call : calls) {
						writeText(out, call.id());
						writeText(out, call.type());
						writeText(out, call.name());
						writeText(out, call.arguments());
					}
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			return bytes.toByteArray();
		}

		@Override
		public ChatResponse decode(byte[] bytes) {
			try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
				int format = in.readUnsignedByte();
				if (format != FORMAT) {
					throw new IllegalArgumentException("Not a recorded model round (format " + format + ")");
				}
				int count = in.readInt();
				List<Generation> generations = new ArrayList<>(count);
				for (int i = 0; i < count; i++) {
					String text = readText(in);
					String finishReason = readText(in);
					int callCount = in.readInt();
					List<AssistantMessage.ToolCall> calls = new ArrayList<>(callCount);
					for (int j = 0; j < callCount; j++) {
						calls.add(new AssistantMessage.ToolCall(orEmpty(readText(in)), orEmpty(readText(in)),
								orEmpty(readText(in)), orEmpty(readText(in))));
					}
					AssistantMessage answer = AssistantMessage.builder().content(text).toolCalls(calls).build();
					generations.add(new Generation(answer, ChatGenerationMetadata.builder().finishReason(finishReason).build()));
				}
				return new ChatResponse(generations);
			}
			catch (IOException ex) {
				throw new IllegalArgumentException("Not a recorded model round", ex);
			}
		}

	};

	private RecordedModelRound() {
	}

	private static void writeText(DataOutputStream out, @Nullable String text) throws IOException {
		if (text == null) {
			out.writeInt(-1);
			return;
		}
		byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
		out.writeInt(utf8.length);
		out.write(utf8);
	}

	private static @Nullable String readText(DataInputStream in) throws IOException {
		int length = in.readInt();
		if (length < 0) {
			return null;
		}
		if (length > in.available()) {
			throw new IOException("Truncated");
		}
		byte[] utf8 = new byte[length];
		in.readFully(utf8);
		return new String(utf8, StandardCharsets.UTF_8);
	}

	private static String orEmpty(@Nullable String text) {
		return (text != null) ? text : "";
	}

}
