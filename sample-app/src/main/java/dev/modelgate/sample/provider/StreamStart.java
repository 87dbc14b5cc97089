package dev.modelgate.sample.provider;

/**
 * How a provider began to answer a streaming request: with a stream of chunks to relay, or with a
 * whole answer instead, which is passed on as is (a 4xx, or a provider that does not stream).
 */
public sealed interface StreamStart {

	/**
	 * The provider is streaming.
	 *
	 * @param chunks its events, to relay as they come
	 */
	record Streaming(ChunkStream chunks) implements StreamStart {
	}

	/**
	 * The provider answered with a whole body.
	 *
	 * @param response its answer, to pass on untouched
	 */
	record Answered(ProviderResponse response) implements StreamStart {
	}

}
