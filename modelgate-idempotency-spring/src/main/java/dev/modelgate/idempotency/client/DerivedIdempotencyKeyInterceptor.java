package dev.modelgate.idempotency.client;

import java.io.IOException;
import java.util.Optional;

import org.springframework.http.HttpRequest;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;

import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * Sends a derived {@code Idempotency-Key} with each call a {@code RestClient} or {@code RestTemplate}
 * makes while a keyed request, {@code @IdempotentOperation} or {@code @IdempotentListener} runs on the
 * calling thread, so that the downstream API (a payment or model provider, a mail service) sees one
 * operation however often this one is repeated: the same key on every retry of the call, and on every
 * run of the request after a failure released its key or a takeover re-ran it. Opt-in: add it to the
 * clients that call APIs which accept such a key.
 *
 * <pre class="code">
 * RestClient payments = RestClient.builder().baseUrl(paymentsUrl)
 *     .requestInterceptor(new DerivedIdempotencyKeyInterceptor())
 *     .build();
 * payments.post().uri("/charges").attribute(DerivedIdempotencyKeyInterceptor.CALL, "charge")
 *     .body(charge).retrieve().toBodilessEntity();
 * </pre>
 *
 * <p>The key is {@code DerivedKeys.uuid} of the running attempt's scope (a hash of the client's
 * identity, the endpoint and its key: never the client's raw key) and of the call: the name given in
 * the request attribute {@link #CALL}, or else the method, the URI and a SHA-256 of the body. Without
 * a name, two calls of one run with the same method, URI and body are one operation to the
 * downstream; name them when they are not, and name a call whose body changes between runs (a
 * timestamp in it) when the runs are to be one operation. A request that already carries the header
 * keeps it; a call made outside a keyed run gets none. The running attempt is found on the calling
 * thread ({@link IdempotencyContext}): a call made on another thread (an executor) gets no key;
 * {@code WebClient} takes {@link DerivedIdempotencyKeyFilter}, which derives the same keys.
 */
public class DerivedIdempotencyKeyInterceptor implements ClientHttpRequestInterceptor {

	/** Request attribute naming the call within its run, for calls that the method, URI and body do not tell apart. */
	public static final String CALL = DerivedIdempotencyKeyInterceptor.class.getName() + ".call";

	/** The header sent unless another is named. */
	public static final String DEFAULT_HEADER = "Idempotency-Key";

	private final String headerName;

	/** Sends the key in {@value #DEFAULT_HEADER}. */
	public DerivedIdempotencyKeyInterceptor() {
		this(DEFAULT_HEADER);
	}

	/**
	 * @param headerName the header the downstream API reads its key from (some providers use names of
	 * their own)
	 */
	public DerivedIdempotencyKeyInterceptor(String headerName) {
		if (headerName.isBlank()) {
			throw new IllegalArgumentException("The header name must not be blank");
		}
		this.headerName = headerName;
	}

	@Override
	public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
			throws IOException {
		Optional<IdempotencyContext.Held> held = IdempotencyContext.current();
		if (held.isPresent() && request.getHeaders().getFirst(this.headerName) == null) {
			request.getHeaders().set(this.headerName, key(held.get().scope(), request, body));
		}
		return execution.execute(request, body);
	}

	/**
	 * {@return the key of one call of the run that holds {@code scope}}
	 * @param scope the running attempt's scope
	 * @param request the call
	 * @param body its body
	 */
	static String key(String scope, HttpRequest request, byte[] body) {
		String named = DerivedCallKeys.named(scope, request.getAttributes().get(CALL));
		return (named != null) ? named
				: DerivedCallKeys.unnamed(scope, request.getMethod().name(), request.getURI(), body);
	}

}
