package dev.modelgate.sample.provider;

import java.io.Closeable;
import java.io.IOException;

/**
 * The events of a streamed chat completion, each the {@code data} of one Server-Sent Event: OpenAI
 * {@code chat.completion.chunk} objects, then {@code [DONE]}.
 */
public interface ChunkStream extends Closeable {

	/** The data of the last event of every OpenAI stream. */
	String DONE = "[DONE]";

	/**
	 * Hands each event to {@code sink} as soon as the provider produces it, up to and including
	 * {@link #DONE}.
	 * @param sink where the events go
	 * @throws IOException when the sink fails (the client went away): nothing more is read
	 * @throws UpstreamFailureException when the provider's stream breaks before {@link #DONE}
	 */
	void forEach(EventSink sink) throws IOException;

	/**
	 * Stops the stream and frees what it holds; callable from any thread, at any time, more than once.
	 * A {@link #forEach} still running ends soon after.
	 */
	@Override
	void close();

	/** Where the events of a stream go. */
	@FunctionalInterface
	interface EventSink {

		/**
		 * @param data the event's data
		 * @throws IOException when the event cannot be delivered
		 */
		void send(String data) throws IOException;

	}

}
