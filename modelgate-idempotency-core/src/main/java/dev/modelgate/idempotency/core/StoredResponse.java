package dev.modelgate.idempotency.core;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A response as recorded for replay: status, the allow-listed headers and the exact body bytes.
 *
 * @param status the HTTP status code
 * @param headers header names (as sent) to their values, in order
 * @param body the body, byte for byte
 */
public record StoredResponse(int status, Map<String, List<String>> headers, byte[] body) {

	public StoredResponse {
		headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
	}

	/**
	 * Headers in the HTTP/1.1 field syntax ({@code Name: value\r\n} per value), the compact form the
	 * stores keep. Header values cannot contain CR or LF, so the encoding is unambiguous.
	 */
	public byte[] encodedHeaders() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		this.headers.forEach((name, values) -> values.forEach((value) -> {
			out.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
			out.writeBytes(new byte[] { ':', ' ' });
			out.writeBytes(value.getBytes(StandardCharsets.ISO_8859_1));
			out.writeBytes(new byte[] { '\r', '\n' });
		}));
		return out.toByteArray();
	}

	/** Reads headers written by {@link #encodedHeaders()}. */
	public static Map<String, List<String>> decodeHeaders(byte[] encoded) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		if (encoded == null) {
			return headers;
		}
		for (String line : new String(encoded, StandardCharsets.ISO_8859_1).split("\r\n")) {
			int colon = line.indexOf(": ");
			if (colon > 0) {
				headers.computeIfAbsent(line.substring(0, colon), (name) -> new ArrayList<>())
					.add(line.substring(colon + 2));
			}
		}
		return headers;
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof StoredResponse that) && this.status == that.status
				&& this.headers.equals(that.headers) && Arrays.equals(this.body, that.body);
	}

	@Override
	public int hashCode() {
		return 31 * (31 * this.status + this.headers.hashCode()) + Arrays.hashCode(this.body);
	}

	@Override
	public String toString() {
		return "StoredResponse[status=" + this.status + ", headers=" + this.headers.keySet() + ", body="
				+ this.body.length + " bytes]";
	}

}
