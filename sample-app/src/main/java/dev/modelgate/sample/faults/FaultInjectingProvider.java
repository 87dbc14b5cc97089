package dev.modelgate.sample.faults;

import dev.modelgate.sample.provider.ChatCompletionProvider;
import dev.modelgate.sample.provider.ProviderResponse;
import dev.modelgate.sample.provider.StreamStart;
import tools.jackson.databind.node.ObjectNode;

/**
 * Wraps the real provider so that a request can stop just before the upstream call or just after
 * its answer, while the idempotency filter still holds the key and has recorded nothing.
 */
final class FaultInjectingProvider implements ChatCompletionProvider {

	private final ChatCompletionProvider delegate;

	FaultInjectingProvider(ChatCompletionProvider delegate) {
		this.delegate = delegate;
	}

	@Override
	public ProviderResponse complete(ObjectNode request) {
		RequestedFault.pauseIfRequested(FaultPoint.BEFORE_UPSTREAM);
		ProviderResponse response = this.delegate.complete(request);
		RequestedFault.pauseIfRequested(FaultPoint.AFTER_UPSTREAM);
		return response;
	}

	/** Streams are never keyed (yet), so there is no key to hold: only the stop before the call applies. */
	@Override
	public StreamStart stream(ObjectNode request) {
		RequestedFault.pauseIfRequested(FaultPoint.BEFORE_UPSTREAM);
		return this.delegate.stream(request);
	}

}
