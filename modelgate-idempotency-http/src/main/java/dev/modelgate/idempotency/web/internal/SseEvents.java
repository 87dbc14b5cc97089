package dev.modelgate.idempotency.web.internal;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.SseEvents;

/**
 * The little of the Server-Sent Events format that recording needs: where an event ends (at a
 * blank line, the lines ending in LF or CR LF) and how to give it the library's {@code id:} line.
 */
public final class SseEvents {

	private SseEvents() {
	}

	/**
	 * Finds the end of the first complete event in {@code bytes[from, to)}.
	 * @return the index just past the blank line that ends it, or {@code -1} when no event is complete
	 */
	public static int endOfEvent(byte[] bytes, int from, int to) {
		int lineStart = from;
		for (int i = from; i < to; i++) {
			if (bytes[i] == '\n') {
				int lineEnd = (i > lineStart && bytes[i - 1] == '\r') ? i - 1 : i;
				if (lineEnd == lineStart) {
					return i + 1;
				}
				lineStart = i + 1;
			}
		}
		return -1;
	}

	/**
	 * The event with {@code id: <sequence>.<attempt tag>} as its first line and any {@code id} line of
	 * its own left out: on a recorded stream the id names the place in the record and the attempt that
	 * recorded it, so that a {@code Last-Event-ID} never resumes one attempt's stream with another's
	 * events ({@link LastEventId}).
	 * @param event one complete event, its blank line included
	 * @param sequence its sequence in the stream
	 * @param attemptTag the recording attempt's tag
	 */
	public static byte[] withId(byte[] event, long sequence, String attemptTag) {
		ByteArrayOutputStream out = new ByteArrayOutputStream(event.length + 24);
		out.writeBytes(("id: " + sequence + "." + attemptTag + "\n").getBytes(StandardCharsets.US_ASCII));
		int lineStart = 0;
		for (int i = 0; i < event.length; i++) {
			if (event[i] == '\n') {
				if (!isIdLine(event, lineStart, i)) {
					out.write(event, lineStart, i + 1 - lineStart);
				}
				lineStart = i + 1;
			}
		}
		return out.toByteArray();
	}

	/**
	 * An event that ends a followed stream that will not complete: {@code event: error} with a JSON
	 * problem, the way an SSE client can tell it from the stream's own events.
	 * @param code the problem code
	 * @param detail what happened
	 */
	public static byte[] terminal(String code, String detail) {
		return ("event: error\ndata: {\"code\":\"" + code + "\",\"detail\":\"" + detail + "\"}\n\n")
			.getBytes(StandardCharsets.UTF_8);
	}

	private static boolean isIdLine(byte[] event, int start, int end) {
		int length = end - start;
		if (length > 0 && event[end - 1] == '\r') {
			length--;
		}
		return (length == 2 || (length > 2 && event[start + 2] == ':')) && event[start] == 'i'
				&& event[start + 1] == 'd';
	}

}
