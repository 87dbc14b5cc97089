package dev.modelgate.idempotency.jdbc;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.r2dbc.spi.Connection;
import io.r2dbc.spi.ConnectionFactory;
import io.r2dbc.spi.Statement;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import dev.modelgate.idempotency.core.AsyncIdempotencyStore;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * What an R2DBC store would cost, for {@code AsyncStoreLoad} to measure beside the JDBC store on a bounded
 * pool: the JDBC store's former {@code INSERT ... ON CONFLICT DO NOTHING} for a new key's {@code begin} and
 * its {@code UPDATE} for {@code complete}, the same SQL text with {@code $n} placeholders, run through
 * r2dbc-postgresql on an r2dbc-pool connection pool, bounded by the operation timeout. Only a new key's
 * path is written (a {@code begin} that finds a record fails): enough to measure, not a store.
 */
public final class R2dbcTransitions implements AsyncIdempotencyStore {

	/**
	 * The JDBC store's {@code begin} for a new key when this was measured (before issue 15 made
	 * {@code begin} one statement for every answer): an insert that does nothing when the key exists.
	 */
	private static final String NEW_KEY_INSERT = """
			INSERT INTO %s (scope, fingerprint, state, token, version, lease_expires_at, created_at, expires_at)
			VALUES (?, ?, 'in_progress', ?, 1, statement_timestamp() + ? * INTERVAL '1 millisecond',
				statement_timestamp(), statement_timestamp() + ? * INTERVAL '1 millisecond')
			ON CONFLICT (scope) DO NOTHING""";

	private final ConnectionFactory connections;

	private final String insert;

	private final String complete;

	private final Duration operationTimeout;

	/**
	 * @param connections a pooled R2DBC connection factory on PostgreSQL
	 * @param tableName the JDBC store's table, which must exist
	 * @param operationTimeout how long a call may take
	 */
	public R2dbcTransitions(ConnectionFactory connections, String tableName, Duration operationTimeout) {
		String table = TableName.of(tableName).qualified();
		PostgresStatements sql = new PostgresStatements(table, false);
		this.connections = connections;
		this.insert = numbered(NEW_KEY_INSERT.formatted(table));
		this.complete = numbered(sql.complete);
		this.operationTimeout = operationTimeout;
	}

	@Override
	public CompletableFuture<BeginResult> begin(String scope, String fingerprint, String token, Duration leaseTtl) {
		long lease = leaseTtl.toMillis();
		return update((connection) -> connection.createStatement(this.insert)
			.bind(0, scope)
			.bind(1, fingerprint)
			.bind(2, token)
			.bind(3, lease)
			.bind(4, lease)).thenApply((rows) -> {
				if (rows != 1) {
					throw new IdempotencyStoreException("only a new key's begin is written here");
				}
				return BeginResult.acquired();
			});
	}

	@Override
	public CompletableFuture<Boolean> complete(String scope, String token, @Nullable StoredOutcome outcome,
			Duration ttl) {
		return update((connection) -> {
			Statement statement = connection.createStatement(this.complete);
			if (outcome != null) {
				statement.bind(0, outcome.kind().code()).bind(1, ByteBuffer.wrap(outcome.payload()));
			}
			else {
				statement.bindNull(0, String.class).bindNull(1, ByteBuffer.class);
			}
			return statement.bind(2, ttl.toMillis()).bind(3, scope).bind(4, token);
		}).thenApply((rows) -> rows == 1);
	}

	@Override
	public CompletableFuture<Boolean> renew(String scope, String token, Duration leaseTtl) {
		throw new UnsupportedOperationException();
	}

	@Override
	public CompletableFuture<Boolean> release(String scope, String token) {
		throw new UnsupportedOperationException();
	}

	private CompletableFuture<Long> update(java.util.function.Function<Connection, Statement> statement) {
		return Mono
			.usingWhen(Mono.from(this.connections.create()),
					(connection) -> Flux.from(statement.apply(connection).execute())
						.flatMap((result) -> result.getRowsUpdated())
						.reduce(0L, Long::sum),
					Connection::close)
			.timeout(this.operationTimeout)
			.onErrorMap((ex) -> !(ex instanceof IdempotencyStoreException),
					(ex) -> new IdempotencyStoreException("R2DBC call failed", ex))
			.toFuture();
	}

	/** JDBC's {@code ?} placeholders as PostgreSQL's {@code $1, $2, ...} (the statements have no {@code ?} in literals). */
	private static String numbered(String sql) {
		StringBuilder numbered = new StringBuilder();
		int n = 0;
		for (char c : sql.toCharArray()) {
			if (c == '?') {
				numbered.append('$').append(++n);
			}
			else {
				numbered.append(c);
			}
		}
		return numbered.toString();
	}

}
