package dev.modelgate.sample.stream;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.modelgate.sample.error.OpenAiError;
import dev.modelgate.sample.provider.ChunkStream;
import dev.modelgate.sample.provider.UpstreamFailureException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One stream being relayed. It ends once, whichever comes first: the provider's {@code [DONE]}, the
 * provider's failure (an error event, as OpenAI sends one), the time limit or a failure of the relay
 * itself (an error event too) or the client going away (nothing more is read from the provider).
 */
final class RelayedStream implements Runnable {

	private static final Log logger = LogFactory.getLog(RelayedStream.class);

	/** Whatever the converters' default charset, the events are UTF-8, as the SSE format requires. */
	private static final MediaType UTF8_TEXT = new MediaType("text", "plain", StandardCharsets.UTF_8);

	private final SseEmitter emitter;

	private final ChunkStream chunks;

	private final AtomicBoolean ended = new AtomicBoolean();

	RelayedStream(SseEmitter emitter, ChunkStream chunks) {
		this.emitter = emitter;
		this.chunks = chunks;
	}

	@Override
	public void run() {
		try {
			this.chunks.forEach(this::send);
			end(null);
		}
		catch (UpstreamFailureException ex) {
			// Once the stream has ended for the client, the provider's connection was closed on purpose.
			if (!this.ended.get()) {
				logger.warn("Upstream stream failed: " + ex.getMessage(), ex.getCause());
				end(OpenAiError.of(ex.getMessage(), OpenAiError.UPSTREAM_ERROR, ex.getReason().code()));
			}
		}
		catch (IOException | IllegalStateException ex) {
			// The client went away, or the stream already ended (timed out): nobody to send to.
			abandon();
		}
		catch (RuntimeException ex) {
			logger.error("Stream relay failed", ex);
			end(OpenAiError.of("The gateway failed to relay the stream.", OpenAiError.SERVER_ERROR, "internal_error"));
		}
		finally {
			this.chunks.close();
		}
	}

	/** Called by the relay's timer when the stream ran past its time limit. */
	void timeOut() {
		end(OpenAiError.of("The stream ran past the gateway's time limit.", OpenAiError.SERVER_ERROR,
				"stream_timeout"));
	}

	/** Called when the stream is over for the client, for whatever reason: stop reading the provider. */
	void abandon() {
		this.ended.set(true);
		this.chunks.close();
	}

	/**
	 * OpenAI writes {@code data: } with a space; clients accept both, and with it the events read the
	 * same as OpenAI's own, for hand-written parsers too.
	 */
	private void send(String data) throws IOException {
		if (this.ended.get()) {
			throw new IOException("The stream has ended");
		}
		this.emitter.send(SseEmitter.event().data(" " + data, UTF8_TEXT));
	}

	private void end(OpenAiError error) {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		try {
			if (error != null) {
				this.emitter.send(SseEmitter.event().data(" " + JsonMapper.shared().writeValueAsString(error), UTF8_TEXT));
			}
			this.emitter.complete();
		}
		catch (IOException | IllegalStateException ex) {
			// The client went away as the stream ended.
		}
		finally {
			this.chunks.close();
		}
	}

}
