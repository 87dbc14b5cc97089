package dev.modelgate.reliability.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code POST /v1/chat/completions} built byte by byte, so that it can be as wrong as a test needs:
 * any header bytes, repeated headers, a length that lies, a chunked body, a body cut short. It says
 * what it is (for failure messages) and which nonce a 2xx answer to it must name.
 */
public final class RawRequest {

	private final List<byte[]> headers = new ArrayList<>();

	private final List<String> description = new ArrayList<>();

	private byte[] body = new byte[0];

	private String nonce;

	private boolean chunked;

	private long declaredLength = -1;

	private boolean cutShort;

	private boolean wellFormed = true;

	private String requestLine = "POST /v1/chat/completions HTTP/1.1";

	private boolean unframed;

	private int allowedStatus = -1;

	private String authorization;

	private String idempotencyKey;

	public RawRequest() {
		header("Host", "127.0.0.1");
	}

	/** A header whose value is sent as UTF-8 bytes. */
	public RawRequest header(String name, String value) {
		return header(name, value.getBytes(StandardCharsets.UTF_8));
	}

	/** A header whose value is sent as these exact bytes. */
	public RawRequest header(String name, byte[] value) {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		line.writeBytes(name.getBytes(StandardCharsets.ISO_8859_1));
		line.writeBytes(": ".getBytes(StandardCharsets.ISO_8859_1));
		line.writeBytes(value);
		this.headers.add(line.toByteArray());
		return this;
	}

	/** The {@code Authorization} header, which the gateway scopes keys by. */
	public RawRequest authorization(String value) {
		this.authorization = value;
		return header("Authorization", value);
	}

	/** An {@code Idempotency-Key} header (one more, if called again). */
	public RawRequest idempotencyKey(String key) {
		return idempotencyKey(key, key.getBytes(StandardCharsets.UTF_8));
	}

	/** An {@code Idempotency-Key} header with these exact value bytes. */
	public RawRequest idempotencyKey(String key, byte[] value) {
		return idempotencyKey(key, value, "Idempotency-Key");
	}

	/** A key header spelled {@code headerName} (header names are case-insensitive). */
	public RawRequest idempotencyKey(String key, String headerName) {
		return idempotencyKey(key, key.getBytes(StandardCharsets.UTF_8), headerName);
	}

	private RawRequest idempotencyKey(String key, byte[] value, String headerName) {
		if (this.idempotencyKey == null) {
			this.idempotencyKey = key;
		}
		return header(headerName, value);
	}

	/** The first {@code Authorization} value set, or {@code null}. */
	public String authorization() {
		return this.authorization;
	}

	/** The first key set, or {@code null}. */
	public String idempotencyKey() {
		return this.idempotencyKey;
	}

	/** A raw header line, colon or not. */
	public RawRequest headerLine(byte[] line) {
		this.headers.add(line);
		return this;
	}

	public RawRequest requestLine(String requestLine) {
		this.requestLine = requestLine;
		return this;
	}

	/**
	 * The body, and the nonce a successful answer must name ({@code null}: none may succeed).
	 */
	public RawRequest body(byte[] body, String nonce) {
		this.body = body;
		this.nonce = nonce;
		return this;
	}

	/**
	 * Sends the body bytes right after the headers with no framing header of this class's own: the
	 * caller's headers say (or misstate) how long it is.
	 */
	public RawRequest unframed() {
		this.unframed = true;
		return this;
	}

	/** Sends the body chunked instead of with a Content-Length. */
	public RawRequest chunked() {
		this.chunked = true;
		return this;
	}

	/** Announces this Content-Length whatever the body's real length. */
	public RawRequest declaredLength(long length) {
		this.declaredLength = length;
		return this;
	}

	/** Stops sending after the body, with the connection half-closed, even if more was announced. */
	public RawRequest cutShort() {
		this.cutShort = true;
		return this;
	}

	/**
	 * Marks the request as breaking HTTP/1.1 itself (or the server's configured limits), so that the
	 * container may refuse it before any application code runs, or just close the connection.
	 */
	public RawRequest malformed() {
		this.wellFormed = false;
		return this;
	}

	/** A status the protocol prescribes for this request even though it is a 5xx. */
	public RawRequest allowStatus(int status) {
		this.allowedStatus = status;
		return this;
	}

	public int allowedStatus() {
		return this.allowedStatus;
	}

	/** Adds a word to what the request is, for failure messages and statistics. */
	public RawRequest describe(String what) {
		this.description.add(what);
		return this;
	}

	public String nonce() {
		return this.nonce;
	}

	public boolean isWellFormed() {
		return this.wellFormed;
	}

	public boolean isCutShort() {
		return this.cutShort;
	}

	public byte[] body() {
		return this.body;
	}

	/** The first word of the description: what kind of request this is. */
	public String kind() {
		return this.description.isEmpty() ? "" : this.description.get(0);
	}

	public String description() {
		return String.join(", ", this.description);
	}

	public byte[] bytes() {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		out.writeBytes((this.requestLine + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
		for (byte[] header : this.headers) {
			out.writeBytes(header);
			out.writeBytes(new byte[] { '\r', '\n' });
		}
		out.writeBytes("Connection: close\r\n".getBytes(StandardCharsets.ISO_8859_1));
		if (this.unframed) {
			out.writeBytes(new byte[] { '\r', '\n' });
			out.writeBytes(this.body);
			return out.toByteArray();
		}
		if (this.chunked) {
			out.writeBytes("Transfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
			for (int offset = 0; offset < this.body.length; offset += 8192) {
				int length = Math.min(8192, this.body.length - offset);
				out.writeBytes((Integer.toHexString(length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
				out.write(this.body, offset, length);
				out.writeBytes(new byte[] { '\r', '\n' });
			}
			if (!this.cutShort) {
				out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
			}
			return out.toByteArray();
		}
		long length = (this.declaredLength >= 0) ? this.declaredLength : this.body.length;
		out.writeBytes(("Content-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
		out.writeBytes(this.body);
		return out.toByteArray();
	}

	public Answer send(int port) {
		return RawHttp.exchange(port, bytes(), this.cutShort);
	}

	@Override
	public String toString() {
		return description() + " (" + this.body.length + " body bytes)";
	}

}
