package dev.modelgate.sample.provider;

import tools.jackson.databind.node.ObjectNode;

/**
 * Answers an OpenAI chat-completion request: the upstream API when one is configured, otherwise the
 * built-in mock.
 */
public interface ChatCompletionProvider {

	/**
	 * @param request the client's request, unknown members included
	 * @return a successful answer, or a client error (4xx) to pass on as is
	 * @throws UpstreamFailureException when the provider failed (5xx), timed out or could not be
	 * reached
	 */
	ProviderResponse complete(ObjectNode request);

	/**
	 * Starts a streamed completion ({@code "stream": true}). Only the start happens on the calling
	 * thread; the chunks are read by whoever relays them.
	 * @param request the client's request, unknown members included
	 * @return the stream, or a whole answer to pass on as is (a 4xx)
	 * @throws UpstreamFailureException when the provider failed (5xx), timed out or could not be
	 * reached before its stream began
	 */
	StreamStart stream(ObjectNode request);

}
