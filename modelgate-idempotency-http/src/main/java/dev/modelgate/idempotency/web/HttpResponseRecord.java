package dev.modelgate.idempotency.web;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * An HTTP response as it is recorded for replay: status, the allow-listed headers and the exact body
 * bytes, written into a {@link StoredOutcome} of kind {@code RESPONSE} and read back from one. The
 * stores never look inside; only the web layer knows this format:
 *
 * <pre>
 *   version (1 byte, 1) | status (2 bytes) | header block length (4 bytes) | header block | body
 * </pre>
 *
 * The header block is in the HTTP/1.1 field syntax ({@code Name: value\r\n} per value): header values
 * cannot contain CR or LF, so it is unambiguous. The body is kept where it lies in the payload, so a
 * replay writes it without copying it.
 *
 * @param status the HTTP status code
 * @param headers header names (as sent) to their values, in order
 * @param payload the whole recorded payload
 * @param bodyOffset where the body starts in {@code payload}
 */
public record HttpResponseRecord(int status, Map<String, List<String>> headers, byte[] payload, int bodyOffset) {

	private static final byte VERSION = 1;

	private static final int PREAMBLE = 1 + 2 + 4;

	public HttpResponseRecord {
		headers = Collections.unmodifiableMap(headers);
	}

	/** The body's length in bytes. */
	public int bodyLength() {
		return this.payload.length - this.bodyOffset;
	}

	/**
	 * Writes a response into an outcome.
	 * @param body the body buffer, of which the first {@code bodyLength} bytes are written
	 */
	public static StoredOutcome encode(int status, Map<String, List<String>> headers, byte[] body, int bodyLength) {
		ByteArrayOutputStream block = new ByteArrayOutputStream();
		headers.forEach((name, values) -> values.forEach((value) -> {
			block.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
			block.writeBytes(new byte[] { ':', ' ' });
			block.writeBytes(value.getBytes(StandardCharsets.ISO_8859_1));
			block.writeBytes(new byte[] { '\r', '\n' });
		}));
		ByteBuffer payload = ByteBuffer.allocate(PREAMBLE + block.size() + bodyLength);
		payload.put(VERSION).putShort((short) status).putInt(block.size()).put(block.toByteArray());
		payload.put(body, 0, bodyLength);
		return new StoredOutcome(StoredOutcome.Kind.RESPONSE, payload.array());
	}

	/**
	 * Reads a response written by {@link #encode}.
	 * @throws IdempotencyStoreException when the outcome is not a response or not in this format
	 */
	public static HttpResponseRecord decode(StoredOutcome outcome) {
		if (outcome.kind() != StoredOutcome.Kind.RESPONSE) {
			throw new IdempotencyStoreException("The record holds a " + outcome.kind().code() + ", not a response");
		}
		byte[] payload = outcome.payload();
		ByteBuffer in = ByteBuffer.wrap(payload);
		if (payload.length < PREAMBLE || in.get() != VERSION) {
			throw new IdempotencyStoreException("The recorded response is not in a format this version reads");
		}
		int status = Short.toUnsignedInt(in.getShort());
		int blockLength = in.getInt();
		if (blockLength < 0 || blockLength > payload.length - PREAMBLE) {
			throw new IdempotencyStoreException("The recorded response is truncated");
		}
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (String line : new String(payload, PREAMBLE, blockLength, StandardCharsets.ISO_8859_1).split("\r\n")) {
			int colon = line.indexOf(": ");
			if (colon > 0) {
				headers.computeIfAbsent(line.substring(0, colon), (name) -> new ArrayList<>())
					.add(line.substring(colon + 2));
			}
		}
		return new HttpResponseRecord(status, headers, payload, PREAMBLE + blockLength);
	}

}
