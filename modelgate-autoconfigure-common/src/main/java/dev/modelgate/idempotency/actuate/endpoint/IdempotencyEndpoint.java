package dev.modelgate.idempotency.actuate.endpoint;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import dev.modelgate.idempotency.actuate.IdempotencyRecords;
import dev.modelgate.idempotency.actuate.InvalidRecordQueryException;
import dev.modelgate.idempotency.core.IdempotencyRecord;
import dev.modelgate.idempotency.core.IdempotencyStore;

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
 *
 * <p>The work is {@link IdempotencyRecords}'; this class maps it onto Actuator's operations. Its
 * optional parameters carry Spring's {@code @Nullable}: Spring Boot 3.5 knows an optional endpoint
 * parameter by that annotation only, Spring Boot 4 by any annotation named {@code Nullable}, and this
 * class serves both lines.
 */
@Endpoint(id = "idempotency", defaultAccess = Access.NONE)
@SuppressWarnings("deprecation") // Spring's @Nullable, for Spring Boot 3.5 (see above)
public class IdempotencyEndpoint {

	private final IdempotencyRecords records;

	/**
	 * @param store the store to read and delete records in
	 * @param keyMaxLength the longest key the filter accepts
	 */
	public IdempotencyEndpoint(IdempotencyStore store, int keyMaxLength) {
		this.records = new IdempotencyRecords(store, keyMaxLength);
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
	public @Nullable RecordDescriptor lookup(String method, String route, String key,
			@org.springframework.lang.Nullable String principal, @org.springframework.lang.Nullable String client,
			@org.springframework.lang.Nullable String identity) {
		return find(valid(() -> this.records.scopeOf(method, route, key, principal, client, identity)));
	}

	/**
	 * The record with the given scope hash.
	 * @param scope the scope hash, as log lines and the MDC show it
	 * @return the record, or {@code null} (404) when there is none
	 */
	@ReadOperation
	public @Nullable RecordDescriptor scope(@Selector String scope) {
		return find(valid(() -> this.records.checkedScope(scope)));
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
	public DeletionDescriptor delete(String method, String route, String key,
			@org.springframework.lang.Nullable String principal, @org.springframework.lang.Nullable String client,
			@org.springframework.lang.Nullable String identity) {
		return deleteScope(valid(() -> this.records.scopeOf(method, route, key, principal, client, identity)));
	}

	/**
	 * Deletes the record with the given scope hash, so that its key runs again.
	 * @param scope the scope hash, as log lines and the MDC show it
	 * @return the scope hash and whether a record was deleted
	 */
	@DeleteOperation
	public DeletionDescriptor deleteByScope(@Selector String scope) {
		return deleteScope(valid(() -> this.records.checkedScope(scope)));
	}

	private @Nullable RecordDescriptor find(String scope) {
		return this.records.find(scope).map(RecordDescriptor::of).orElse(null);
	}

	private DeletionDescriptor deleteScope(String scope) {
		return new DeletionDescriptor(scope, this.records.delete(scope));
	}

	/** A scope hash, or Actuator's 400 when the request names none. */
	private static String valid(Supplier<String> scope) {
		try {
			return scope.get();
		}
		catch (InvalidRecordQueryException ex) {
			throw new InvalidEndpointRequestException(ex.getMessage(), ex.getReason());
		}
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
