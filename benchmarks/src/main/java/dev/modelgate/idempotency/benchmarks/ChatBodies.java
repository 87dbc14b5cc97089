package dev.modelgate.idempotency.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * OpenAI-style chat-completion request bodies of an exact size, so that fingerprinting is measured
 * on the JSON shape the sample gateway receives: a few scalar members and a long array of messages
 * whose content is ordinary text.
 */
public final class ChatBodies {

	private static final String SENTENCE = "The quick brown fox jumps over the lazy dog, then checks its idempotency key. ";

	private ChatBodies() {
	}

	/**
	 * Writes a body to a file, so that the load benchmark sends what the JMH benchmarks measure.
	 * @param args the size in bytes, then the file
	 */
	public static void main(String[] args) throws IOException {
		Files.write(Path.of(args[1]), ofSize(Integer.parseInt(args[0])));
	}

	/**
	 * A chat request of exactly {@code size} bytes of UTF-8 JSON.
	 * @param size the body length; at least 128
	 * @return the body
	 */
	public static byte[] ofSize(int size) {
		String head = "{\"model\":\"mock-1\",\"temperature\":0.7,\"max_tokens\":256,\"messages\":[";
		String tail = "]}";
		StringBuilder json = new StringBuilder(size).append(head);
		int messages = 0;
		// Whole messages of about 512 bytes while they fit, then one message padded to the exact size.
		while (true) {
			String role = (messages % 2 == 0) ? "user" : "assistant";
			String opening = ((messages > 0) ? "," : "") + "{\"role\":\"" + role + "\",\"content\":\"";
			String closing = "\"}";
			int room = size - json.length() - opening.length() - closing.length() - tail.length();
			if (room < 0) {
				throw new IllegalArgumentException("A chat body needs at least " + (size - room) + " bytes");
			}
			boolean last = room < 1024;
			int length = last ? room : 512;
			json.append(opening).append(text(length, messages)).append(closing);
			messages++;
			if (last) {
				break;
			}
		}
		byte[] body = json.append(tail).toString().getBytes(StandardCharsets.UTF_8);
		if (body.length != size) {
			throw new IllegalStateException("Built " + body.length + " bytes instead of " + size);
		}
		return body;
	}

	private static String text(int length, int seed) {
		StringBuilder text = new StringBuilder(length);
		text.append(seed).append(": ");
		while (text.length() < length) {
			text.append(SENTENCE);
		}
		text.setLength(length);
		return text.toString();
	}

}
