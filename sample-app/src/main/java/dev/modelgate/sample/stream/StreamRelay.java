package dev.modelgate.sample.stream;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.modelgate.sample.provider.ChunkStream;

import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * Relays a provider's stream to the client as Server-Sent Events, each sent and flushed as soon as the
 * provider produces it, on a thread of a bounded pool while the request thread goes back to the
 * container. The app targets Java 17, so no virtual threads: one pooled thread per stream, and no
 * queue (a stream waiting in a queue would look to its client like a hung one). The pool is the
 * relay's own rather than a bean, so that nothing else that asks for an {@code Executor} gets it.
 */
public class StreamRelay implements AutoCloseable {

	/**
	 * Past the container's async timeout Spring MVC no longer lets the emitter write, so the relay's
	 * own timer ends the stream (with an error event) and the container's only catches what it missed.
	 */
	private static final Duration CONTAINER_GRACE = Duration.ofSeconds(10);

	private final ThreadPoolExecutor executor;

	private final ScheduledThreadPoolExecutor timer;

	private final Duration timeout;

	/**
	 * @param maxConcurrent most streams relayed at once; one more is refused
	 * @param timeout the longest a stream may last
	 */
	public StreamRelay(int maxConcurrent, Duration timeout) {
		this.executor = new ThreadPoolExecutor(maxConcurrent, maxConcurrent, 60, TimeUnit.SECONDS,
				new SynchronousQueue<>(), threads("chat-stream-"));
		this.executor.allowCoreThreadTimeOut(true);
		this.timer = new ScheduledThreadPoolExecutor(1, threads("chat-stream-timer-"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.timeout = timeout;
	}

	/**
	 * @param chunks the provider's stream, closed by the relay when it ends, fails or is abandoned
	 * @return the emitter to return from the handler
	 * @throws RejectedExecutionException when too many streams are already being relayed
	 */
	public SseEmitter relay(ChunkStream chunks) {
		SseEmitter emitter = new SseEmitter(this.timeout.plus(CONTAINER_GRACE).toMillis());
		RelayedStream stream = new RelayedStream(emitter, chunks);
		try {
			this.executor.execute(stream);
		}
		catch (RejectedExecutionException ex) {
			chunks.close();
			throw ex;
		}
		ScheduledFuture<?> limit = this.timer.schedule(stream::timeOut, this.timeout.toMillis(), TimeUnit.MILLISECONDS);
		emitter.onTimeout(stream::abandon);
		emitter.onError((ex) -> stream.abandon());
		emitter.onCompletion(() -> {
			stream.abandon();
			limit.cancel(false);
		});
		return emitter;
	}

	/** Stops every stream still being relayed, when the application shuts down. */
	@Override
	public void close() {
		this.timer.shutdownNow();
		this.executor.shutdownNow();
	}

	private static ThreadFactory threads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		ThreadFactory defaults = Executors.defaultThreadFactory();
		return (task) -> {
			Thread thread = defaults.newThread(task);
			thread.setName(prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
