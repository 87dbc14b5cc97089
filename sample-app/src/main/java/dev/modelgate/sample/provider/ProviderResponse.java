package dev.modelgate.sample.provider;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;

/**
 * What the provider answered, passed to the client as is: the body is kept byte for byte so that a
 * cached or replayed answer is exactly the first one.
 *
 * @param status the provider's status
 * @param headers the provider's headers worth passing on (content type, retry hint)
 * @param body the provider's body
 */
public record ProviderResponse(HttpStatusCode status, HttpHeaders headers, byte[] body) {

	/**
	 * Keeps only the headers a client of the gateway can use: the others describe the provider's
	 * connection, not the answer.
	 */
	public static ProviderResponse of(HttpStatusCode status, HttpHeaders providerHeaders, byte[] body) {
		HttpHeaders headers = new HttpHeaders();
		copy(providerHeaders, headers, HttpHeaders.CONTENT_TYPE);
		copy(providerHeaders, headers, HttpHeaders.RETRY_AFTER);
		return new ProviderResponse(status, headers, body);
	}

	private static void copy(HttpHeaders from, HttpHeaders to, String name) {
		String value = from.getFirst(name);
		if (value != null) {
			to.set(name, value);
		}
	}

}
