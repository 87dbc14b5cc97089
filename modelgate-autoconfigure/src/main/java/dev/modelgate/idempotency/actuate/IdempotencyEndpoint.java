package dev.modelgate.idempotency.actuate;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.web.servlet.DefaultClientIdentityResolver;

/**
 * The {@code idempotency} Actuator endpoint, for support staff asking "did this request go through?":
 * looks up one record and shows its state, age, expiry and the status of its stored response, and
 * can delete it so that the key runs again. Off by default ({@link Access#NONE}); turn it on with
 * {@code management.endpoint.idempotency.access=read-only} (look-ups only) or {@code unrestricted}
 * (deletion too), and expose it.
 *
 * <p>A record is named either by its scope hash, as log lines and the MDC show it
 * ({@code /actuator/idempotency/{scope}}), or by what the client sent
 * ({@code /actuator/idempotency?method=POST&route=/orders&key=...} plus one of {@code principal},
 * {@code client} or {@code identity}), hashed exactly as the filter hashes it. The client is named by
 * its authenticated principal's name ({@code principal}), by the value of its
 * {@code client-identity-header} such as the {@code Authorization} header ({@code client}, hashed
 * as the filter does), or by the identity a custom {@code ClientIdentityResolver} returns
 * ({@code identity}); with none of them, the shared anonymous scope. Neither the key nor the client is
 * ever part of an answer, and neither is the stored body.
 */
@Endpoint(id = "idempotency", defaultAccess = Access.NONE)
public class IdempotencyEndpoint {

	private static final Pattern SCOPE_HASH = Pattern.compile("[0-9a-f]{64}");

	private final IdempotencyStore store;

	private final int keyMaxLength;

	/**
	 * @param store the store to read and delete records in
	 * @param keyMaxLength the longest key the filter accepts
	 */
	public IdempotencyEndpoint(IdempotencyStore store, int keyMaxLength) {
		this.store = store;
		this.keyMaxLength = keyMaxLength;
	}

	/**
	 * The record the client's request would meet. Name the client by at most one of
	 * {@code principal}, {@code client} and {@code identity}.
	 * @param method the request's HTTP method
	 * @param route the handler's route pattern, or the scope name of its {@code @Idempotent}
	 * @param key the idempotency key the client sent
	 * @param principal the client's authenticated principal name, or {@code null}
	 * @param client the value of the client's identity header, or {@code null}
	 * @param identity what a custom {@code ClientIdentityResolver} returns for the client, or {@code null}
	 * @return the record, or {@code null} (404) when there is none
	 */
	@ReadOperation
	public @Nullable RecordDescriptor lookup(String method, String route, String key, @Nullable String principal,
			@Nullable String client, @Nullable String identity) {
		return find(scopeOf(method, route, key, principal, client, identity));
	}

	/**
	 * The record with the given scope hash.
	 * @param scope the scope hash, as log lines and the MDC show it
	 * @return the record, or {@code null} (404) when there is none
	 */
	@ReadOperation
	public @Nullable RecordDescriptor scope(@Selector String scope) {
		return find(checkedHash(scope));
	}

	/**
	 * Deletes the record the client's request would meet, so that the key runs again. Name the client
	 * by at most one of {@code principal}, {@code client} and {@code identity}.
	 * @param method the request's HTTP method
	 * @param route the handler's route pattern, or the scope name of its {@code @Idempotent}
	 * @param key the idempotency key the client sent
	 * @param principal the client's authenticated principal name, or {@code null}
	 * @param client the value of the client's identity header, or {@code null}
	 * @param identity what a custom {@code ClientIdentityResolver} returns for the client, or {@code null}
	 * @return the scope hash and whether a record was deleted
	 */
	@DeleteOperation
	public DeletionDescriptor delete(String method, String route, String key, @Nullable String principal,
			@Nullable String client, @Nullable String identity) {
		return deleteScope(scopeOf(method, route, key, principal, client, identity));
	}

	/**
	 * Deletes the record with the given scope hash, so that its key runs again.
	 * @param scope the scope hash, as log lines and the MDC show it
	 * @return the scope hash and whether a record was deleted
	 */
	@DeleteOperation
	public DeletionDescriptor deleteByScope(@Selector String scope) {
		return deleteScope(checkedHash(scope));
	}

	private @Nullable RecordDescriptor find(String scope) {
		Optional<IdempotencyRecord> record = this.store.find(scope);
		return record.map(RecordDescriptor::of).orElse(null);
	}

	private DeletionDescriptor deleteScope(String scope) {
		return new DeletionDescriptor(scope, this.store.delete(scope));
	}

	private String scopeOf(String method, String route, String key, @Nullable String principal,
			@Nullable String client, @Nullable String identity) {
		IdempotencyKey parsed;
		try {
			parsed = IdempotencyKey.parse(List.of(key), this.keyMaxLength);
		}
		catch (InvalidIdempotencyKeyException ex) {
			// The reason never repeats the key: it may end up in a log.
			throw new InvalidEndpointRequestException("Invalid idempotency key: " + ex.getMessage(),
					"invalid idempotency key");
		}
		return IdempotencyScope
			.of(clientIdentity(principal, client, identity), method.toUpperCase(Locale.ROOT), route, parsed)
			.hash();
	}

	private static String clientIdentity(@Nullable String principal, @Nullable String client,
			@Nullable String identity) {
		int given = ((principal != null) ? 1 : 0) + ((client != null) ? 1 : 0) + ((identity != null) ? 1 : 0);
		if (given > 1) {
			throw new InvalidEndpointRequestException("Name the client by one of principal, client or identity",
					"more than one client given");
		}
		if (principal != null) {
			return DefaultClientIdentityResolver.principalIdentity(principal);
		}
		if (client != null) {
			return DefaultClientIdentityResolver.headerIdentity(client);
		}
		return (identity != null) ? identity : DefaultClientIdentityResolver.ANONYMOUS;
	}

	private static String checkedHash(String scope) {
		if (!SCOPE_HASH.matcher(scope).matches()) {
			throw new InvalidEndpointRequestException("A scope is 64 lower-case hex digits (as logged)",
					"malformed scope");
		}
		return scope;
	}

	/**
	 * A record as the endpoint shows it.
	 *
	 * @param scope the scope hash
	 * @param state {@code in_progress}, {@code applied} or {@code completed}
	 * @param createdAt when the attempt began (ISO-8601), or {@code null} when unknown
	 * @param age how long ago it began (ISO-8601 duration), or {@code null} when unknown
	 * @param expiresAt when the record stops counting: the lease's end while in progress, the end of
	 * retention once completed
	 * @param expiresIn how long until then (ISO-8601 duration)
	 * @param outcome what a retry is replayed with ({@code response} for a request's recorded
	 * response; {@code value}, {@code null}, {@code failure} or {@code unknown} for a template call), or
	 * {@code null} when nothing is stored (in progress, or completed with its result not kept: a retry
	 * gets 410)
	 * @param outcomeSize the size of the stored outcome in bytes, or {@code null}
	 */
	public record RecordDescriptor(String scope, String state, @Nullable String createdAt, @Nullable String age,
			@Nullable String expiresAt, @Nullable String expiresIn, @Nullable String outcome,
			@Nullable Long outcomeSize) implements OperationResponseBody {

		static RecordDescriptor of(IdempotencyRecord record) {
			return new RecordDescriptor(record.scope(), record.state().name().toLowerCase(Locale.ROOT),
					text(record.createdAt()), text(record.age()), text(record.expiresAt()), text(record.expiresIn()),
					(record.outcomeKind() != null) ? record.outcomeKind().code() : null, record.outcomeSize());
		}

		private static @Nullable String text(@Nullable Instant instant) {
			return (instant != null) ? instant.toString() : null;
		}

		private static @Nullable String text(@Nullable Duration duration) {
			return (duration != null) ? duration.toString() : null;
		}

	}

	/**
	 * The answer to a deletion.
	 *
	 * @param scope the scope hash
	 * @param deleted whether a live record was deleted (false: there was none)
	 */
	public record DeletionDescriptor(String scope, boolean deleted) implements OperationResponseBody {

	}

}
