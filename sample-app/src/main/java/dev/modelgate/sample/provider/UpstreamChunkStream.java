package dev.modelgate.sample.provider;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * An upstream provider's {@code text/event-stream} body, read line by line as it arrives: each event's
 * {@code data} is handed on as soon as its closing blank line is read. Comments and other fields
 * ({@code event:}, {@code id:}) are dropped; the gateway sends events of its own.
 */
final class UpstreamChunkStream implements ChunkStream {

	private final InputStream body;

	UpstreamChunkStream(InputStream body) {
		this.body = body;
	}

	@Override
	public void forEach(EventSink sink) throws IOException {
		BufferedReader reader = new BufferedReader(new InputStreamReader(this.body, StandardCharsets.UTF_8));
		StringBuilder data = new StringBuilder();
		boolean done = false;
		while (!done) {
			String line = readLine(reader);
			if (line == null) {
				throw UpstreamFailureException.interrupted(null);
			}
			if (line.isEmpty()) {
				if (!data.isEmpty()) {
					done = data.toString().equals(DONE);
					sink.send(data.toString());
					data.setLength(0);
				}
			}
			else if (line.startsWith("data:")) {
				data.append(data.isEmpty() ? "" : "\n").append(withoutLeadingSpace(line.substring(5)));
			}
		}
	}

	/** Failures to read are the provider's (or the closed connection's), never the client's. */
	private static String readLine(BufferedReader reader) {
		try {
			return reader.readLine();
		}
		catch (IOException ex) {
			throw UpstreamFailureException.interrupted(ex);
		}
	}

	private static String withoutLeadingSpace(String value) {
		return value.startsWith(" ") ? value.substring(1) : value;
	}

	@Override
	public void close() {
		try {
			this.body.close();
		}
		catch (IOException ex) {
			// The connection is being dropped either way.
		}
	}

}
