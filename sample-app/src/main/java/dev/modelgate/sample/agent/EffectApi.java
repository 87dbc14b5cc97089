package dev.modelgate.sample.agent;

import java.net.URI;
import java.util.Map;

import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

/**
 * An API outside the gateway that an agent's effect is also posted to, with the tool call's key as its
 * {@code Idempotency-Key}: what it receives survives the gateway, so a test that kills the gateway can
 * count the effects (the reliability suite's recording APIs).
 */
final class EffectApi {

	private final RestClient client;

	private final URI uri;

	EffectApi(RestClient.Builder builder, URI uri) {
		this.client = builder.build();
		this.uri = uri;
	}

	/** {@code null} when {@code uri} is unset: the effect stays in the gateway. */
	static EffectApi of(RestClient.Builder builder, URI uri) {
		return (uri != null) ? new EffectApi(builder, uri) : null;
	}

	void post(String idempotencyKey, Map<String, String> effect) {
		this.client.post()
			.uri(this.uri)
			.header("Idempotency-Key", idempotencyKey)
			.contentType(MediaType.APPLICATION_JSON)
			.body(effect)
			.retrieve()
			.toBodilessEntity();
	}

}
