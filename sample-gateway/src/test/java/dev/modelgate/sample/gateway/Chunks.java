package dev.modelgate.sample.gateway;

/**
 * Chat completion chunks as an OpenAI-compatible provider streams them. Apart from the route tests so
 * that a test can use them without loading {@link GatewayRouteIdempotencyTests}, whose class
 * initialiser installs BlockHound: installed while a context's scheduler threads already wait in
 * code it did not instrument, it refuses their idle waits and kills them.
 */
final class Chunks {

	private Chunks() {
	}

	static String chunk(String id, String delta, String finishReason) {
		return "{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
				+ "\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
				+ finishReason + "}]}";
	}

}
