package dev.modelgate.idempotency.ai;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.internal.RequestFingerprint;

/**
 * What the store keeps of a tool call: the fingerprint of the arguments it ran with and the text it
 * returned to the model. The arguments are kept beside the result, rather than as the call's
 * fingerprint, so that a re-run with other arguments can still be given the recorded result.
 *
 * @param argumentsHash the SHA-256 of the arguments' canonical JSON (RFC 8785), or of their bytes when
 * they are not JSON
 * @param result what the tool returned, {@code null} included
 */
record RecordedToolCall(String argumentsHash, @Nullable String result) {

	/** Encoded as the hash, a line feed, then {@code 0} for no result or {@code 1} and the result in UTF-8. */
	static final ResultCodec<RecordedToolCall> CODEC = new ResultCodec<>() {

		@Override
		public byte[] encode(RecordedToolCall value) {
			String text = value.argumentsHash() + "\n" + ((value.result() != null) ? "1" + value.result() : "0");
			return text.getBytes(StandardCharsets.UTF_8);
		}

		@Override
		public RecordedToolCall decode(byte[] bytes) {
			String text = new String(bytes, StandardCharsets.UTF_8);
			int newline = text.indexOf('\n');
			if (newline < 0 || newline + 1 >= text.length()) {
				throw new IllegalArgumentException("Not a recorded tool call");
			}
			char kind = text.charAt(newline + 1);
			String result = (kind == '1') ? text.substring(newline + 2) : null;
			if (kind != '0' && kind != '1') {
				throw new IllegalArgumentException("Not a recorded tool call");
			}
			return new RecordedToolCall(text.substring(0, newline), result);
		}

	};

	/**
	 * The fingerprint of a call's arguments: key order, white space and the spelling of numbers do not
	 * count, as for a request body.
	 */
	static String hashArguments(String toolName, String arguments) {
		byte[] bytes = arguments.getBytes(StandardCharsets.UTF_8);
		return RequestFingerprint.of("TOOL", toolName, "", CanonicalBody.json(bytes, 0, bytes.length, List.of()));
	}

}
