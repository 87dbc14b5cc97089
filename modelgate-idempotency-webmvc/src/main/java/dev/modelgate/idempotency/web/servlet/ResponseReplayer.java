package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;

/**
 * Writes a recorded response back, byte for byte: its status, the headers that may be replayed, the
 * replay marker, and the body straight from the recorded payload.
 */
final class ResponseReplayer {

	private final ReplayHeaders replayHeaders;

	private final String replayedHeaderName;

	ResponseReplayer(ReplayHeaders replayHeaders, String replayedHeaderName) {
		this.replayHeaders = replayHeaders;
		this.replayedHeaderName = replayedHeaderName;
	}

	void replay(HttpResponseRecord stored, HttpServletResponse response) throws IOException {
		response.setStatus(stored.status());
		stored.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.addHeader(name, value));
			}
		});
		response.setHeader(this.replayedHeaderName, "true");
		response.setContentLength(stored.bodyLength());
		response.getOutputStream().write(stored.payload(), stored.bodyOffset(), stored.bodyLength());
	}

}
