package dev.modelgate.sample.stream;

import java.time.Duration;
import java.util.concurrent.Executor;

import dev.modelgate.sample.provider.ChunkStream;

import org.springframework.core.task.TaskRejectedException;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Relays a provider's stream to the client as Server-Sent Events, each sent and flushed as soon as the
 * provider produces it, on a thread of a bounded pool while the request thread goes back to the
 * container.
 */
public class StreamRelay {

	private final Executor executor;

	private final Duration timeout;

	/**
	 * @param executor runs one relay per stream; it refuses a stream when it has no thread free
	 * @param timeout the longest a stream may last
	 */
	public StreamRelay(Executor executor, Duration timeout) {
		this.executor = executor;
		this.timeout = timeout;
	}

	/**
	 * @param chunks the provider's stream, closed by the relay when it ends, fails or is abandoned
	 * @return the emitter to return from the handler
	 * @throws TaskRejectedException when too many streams are already being relayed
	 */
	public SseEmitter relay(ChunkStream chunks) {
		SseEmitter emitter = new SseEmitter(this.timeout.toMillis());
		RelayedStream stream = new RelayedStream(emitter, chunks);
		emitter.onTimeout(stream::timeOut);
		emitter.onError((ex) -> stream.abandon());
		emitter.onCompletion(stream::abandon);
		try {
			this.executor.execute(stream);
		}
		catch (TaskRejectedException ex) {
			chunks.close();
			throw ex;
		}
		return emitter;
	}

}
