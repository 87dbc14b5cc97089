package dev.modelgate.idempotency.web.reactive;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

/**
 * The authenticated principal's name ({@link ServerWebExchange#getPrincipal()}, which Spring
 * Security's {@code WebFilterChainProxy} fills in before this project's filter runs) when there is
 * one; else the SHA-256 of the configured identity header. The identities are spelled as the servlet
 * resolver spells them ({@code principal:<name>}, {@code header:<sha-256>}), so a client has the same
 * scopes under either stack and the Actuator endpoint finds them the same way.
 *
 * <p>A blank name or header value identifies nobody. With no identity header configured, every
 * request without a principal gets the shared {@value #ANONYMOUS} identity.
 */
public class DefaultReactiveClientIdentityResolver implements ReactiveClientIdentityResolver {

	/** The identity shared by requests with neither a principal nor the identity header. */
	public static final String ANONYMOUS = "anonymous";

	private final @Nullable String identityHeader;

	/**
	 * @param identityHeader the header that identifies unauthenticated clients, or {@code null} to give
	 * every request without a principal the shared {@link #ANONYMOUS} identity
	 */
	public DefaultReactiveClientIdentityResolver(@Nullable String identityHeader) {
		this.identityHeader = identityHeader;
	}

	@Override
	public Mono<String> resolve(ServerWebExchange exchange) {
		return exchange.getPrincipal()
			.filter((principal) -> principal.getName() != null && !principal.getName().isBlank())
			.map((principal) -> "principal:" + principal.getName())
			.switchIfEmpty(Mono.fromSupplier(() -> fromHeader(exchange)));
	}

	private @Nullable String fromHeader(ServerWebExchange exchange) {
		if (this.identityHeader == null) {
			return ANONYMOUS;
		}
		String value = exchange.getRequest().getHeaders().getFirst(this.identityHeader);
		return (value != null && !value.isBlank()) ? "header:" + sha256(value) : null;
	}

	private static String sha256(String value) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-256");
			return HexFormat.of().formatHex(digest.digest(value.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
