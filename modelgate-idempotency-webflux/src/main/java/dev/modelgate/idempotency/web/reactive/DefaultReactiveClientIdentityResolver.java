package dev.modelgate.idempotency.web.reactive;

import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.internal.ClientIdentities;

/**
 * The authenticated principal's name ({@link ServerWebExchange#getPrincipal()}, which Spring
 * Security's {@code WebFilterChainProxy} fills in before this project's filter runs) when there is
 * one; else the SHA-256 of the configured identity header. The identities are spelled as
 * {@link ClientIdentities} says, as the servlet resolver spells them, so a client has the same scopes
 * under either stack and the Actuator endpoint finds them the same way.
 */
public class DefaultReactiveClientIdentityResolver implements ReactiveClientIdentityResolver {

	/** The identity shared by requests with neither a principal nor the identity header. */
	public static final String ANONYMOUS = ClientIdentities.ANONYMOUS;

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
			.filter((named) -> named.getName() != null && !named.getName().isBlank())
			.map((named) -> ClientIdentities.principalIdentity(named.getName()))
			.switchIfEmpty(Mono.defer(() -> headerIdentity(exchange)));
	}

	private Mono<String> headerIdentity(ServerWebExchange exchange) {
		try {
			return Mono.justOrEmpty(ClientIdentities.of(null, this.identityHeader,
					(this.identityHeader != null) ? HeaderValues.all(exchange.getRequest().getHeaders(), this.identityHeader)
							: List.of()));
		}
		catch (AmbiguousClientIdentityException ex) {
			return Mono.error(ex);
		}
	}

}
