package dev.modelgate.reliability.support;

import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Chat-completion bodies tagged so that the {@link CountingUpstream} can tell which request reached
 * it: the tag travels in the user message as {@code @@tag@@}, and the upstream's answer names it.
 */
public final class ChatRequests {

	private ChatRequests() {
	}

	/** A fresh tag: letters, digits and dashes only. */
	public static String newTag(String prefix) {
		return prefix + "-" + UUID.randomUUID().toString().replace("-", "");
	}

	/** A valid, non-streaming, non-cacheable chat request whose only message carries {@code tag}. */
	public static String request(String tag) {
		return "{\"model\":\"stub-model\",\"messages\":[{\"role\":\"user\",\"content\":\"@@" + tag + "@@\"}]}";
	}

	/** The same request with {@code "stream": true}: the upstream streams its answer in chunks. */
	public static String streamRequest(String tag) {
		return "{\"model\":\"stub-model\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"@@" + tag
				+ "@@\"}]}";
	}

	static boolean isStream(String body) {
		return body.replace(" ", "").contains("\"stream\":true");
	}

	/** Chunk {@code index} of the upstream's streamed answer to call {@code number}. */
	static String chunk(String tag, int number, int index, boolean last) {
		return "{\"id\":\"chatcmpl-stub-" + number + "\",\"object\":\"chat.completion.chunk\",\"created\":"
				+ (1_700_000_000L + number) + ",\"model\":\"stub-model\",\"choices\":[{\"index\":0,\"delta\":"
				+ "{\"content\":\"@@" + tag + "@@ call " + number + " word " + index + " \"},\"finish_reason\":"
				+ (last ? "\"stop\"" : "null") + "}]}";
	}

	/** The upstream's answer to call number {@code number}, made for {@code tag}. */
	static String completion(String tag, int number) {
		return "{\"id\":\"chatcmpl-stub-" + number + "\",\"object\":\"chat.completion\",\"created\":"
				+ (1_700_000_000L + number) + ",\"model\":\"stub-model\",\"choices\":[{\"index\":0,\"message\":"
				+ "{\"role\":\"assistant\",\"content\":\"reply to @@" + tag + "@@ from call " + number + "\"},"
				+ "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":5,"
				+ "\"total_tokens\":6}}";
	}

	/** Whether an answer body, a whole answer or a stream of chunks, was made for {@code tag}. */
	public static boolean answers(byte[] body, String tag) {
		String text = new String(body, StandardCharsets.UTF_8);
		return text.contains("reply to @@" + tag + "@@ from call ") || text.contains("{\"content\":\"@@" + tag + "@@ call ");
	}

}
