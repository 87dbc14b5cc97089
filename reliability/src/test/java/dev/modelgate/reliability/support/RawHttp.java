package dev.modelgate.reliability.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * HTTP/1.1 over a plain socket, for requests that HTTP clients refuse to send: any header bytes,
 * repeated or contradictory headers, lengths that lie, bodies cut short. One request per connection
 * ({@code Connection: close} is the caller's to add). The request is written on another thread
 * while the answer is read, so that a server answering before it read everything is seen answering.
 */
public final class RawHttp {

	private static final int TIMEOUT_MILLIS = 30_000;

	private RawHttp() {
	}

	/**
	 * Sends {@code request} as is and reads the answer.
	 * @param halfClose whether to shut the sending side once the bytes are out (a client that gives
	 * up on a body it announced as longer)
	 * @return the final (non-1xx) answer, or an {@link Answer} with status {@code -1} when the server
	 * closed the connection without one
	 */
	public static Answer exchange(int port, byte[] request, boolean halfClose) {
		long sentAt = System.nanoTime();
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(socket, request, halfClose));
			Answer answer = read(socket.getInputStream(), sentAt);
			writing.exceptionally((ex) -> null).join();
			return answer;
		}
		catch (IOException ex) {
			return Answer.failed(ex, sentAt);
		}
	}

	private static void write(Socket socket, byte[] request, boolean halfClose) {
		try {
			OutputStream out = socket.getOutputStream();
			for (int offset = 0; offset < request.length; offset += 64 * 1024) {
				out.write(request, offset, Math.min(64 * 1024, request.length - offset));
			}
			out.flush();
			if (halfClose) {
				socket.shutdownOutput();
			}
		}
		catch (IOException ex) {
			// The server answered and closed before taking every byte (a 413, a 400): its answer is what counts.
		}
	}

	private static Answer read(InputStream in, long sentAt) throws IOException {
		while (true) {
			String statusLine = line(in);
			if (statusLine == null) {
				return Answer.failed(new IOException("connection closed without an answer"), sentAt);
			}
			String[] parts = statusLine.split(" ", 3);
			if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
				throw new IOException("Not an HTTP status line: " + statusLine);
			}
			int status = Integer.parseInt(parts[1]);
			Map<String, List<String>> headers = new LinkedHashMap<>();
			for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
				int colon = header.indexOf(':');
				if (colon > 0) {
					headers.computeIfAbsent(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), (k) -> new ArrayList<>())
						.add(header.substring(colon + 1).trim());
				}
			}
			if (status >= 100 && status < 200) {
				continue;
			}
			byte[] body = body(in, headers);
			return new Answer(status, HttpHeaders.of(headers, (name, value) -> true), body, null, sentAt,
					System.nanoTime());
		}
	}

	private static byte[] body(InputStream in, Map<String, List<String>> headers) throws IOException {
		List<String> encoding = headers.getOrDefault("transfer-encoding", List.of());
		if (encoding.stream().anyMatch((value) -> value.toLowerCase(Locale.ROOT).contains("chunked"))) {
			ByteArrayOutputStream body = new ByteArrayOutputStream();
			for (String size = line(in); size != null; size = line(in)) {
				int length = Integer.parseInt(size.split(";")[0].trim(), 16);
				if (length == 0) {
					line(in);
					break;
				}
				body.write(in.readNBytes(length));
				line(in);
			}
			return body.toByteArray();
		}
		List<String> length = headers.get("content-length");
		if (length != null) {
			return in.readNBytes(Integer.parseInt(length.get(0)));
		}
		return in.readAllBytes();
	}

	/** A CRLF-terminated line as ISO-8859-1, or {@code null} at the end of the stream. */
	private static String line(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) >= 0) {
			if (b == '\n') {
				byte[] bytes = line.toByteArray();
				int end = (bytes.length > 0 && bytes[bytes.length - 1] == '\r') ? bytes.length - 1 : bytes.length;
				return new String(bytes, 0, end, StandardCharsets.ISO_8859_1);
			}
			line.write(b);
		}
		return (line.size() > 0) ? line.toString(StandardCharsets.ISO_8859_1) : null;
	}

}
