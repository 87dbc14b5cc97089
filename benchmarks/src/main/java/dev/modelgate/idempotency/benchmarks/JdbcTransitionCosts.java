package dev.modelgate.idempotency.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.IntConsumer;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencySchema;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.MarkAppliedTransactionListener;

/**
 * What each JDBC store transition costs, one at a time on one thread against a real PostgreSQL:
 * wall time per call (p50, p90) and the calling thread's CPU per call, for a new key's begin and
 * complete, a replay's and an in-progress duplicate's begin, and the applied mark (a business
 * transaction with it, less the same transaction without it). It calls the store's public API only,
 * so an older build of the store can be measured by putting its jar first on the class path:
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar dev.modelgate.idempotency.benchmarks.JdbcTransitionCosts [calls]
 * java -cp /older/modelgate-idempotency-jdbc-0.1.0-SNAPSHOT.jar:benchmarks/target/benchmarks.jar \
 *   dev.modelgate.idempotency.benchmarks.JdbcTransitionCosts [calls]
 * </pre>
 *
 * The database is PGHOST, PGPORT, PGDATABASE and PGUSER (127.0.0.1, 5432, test, postgres).
 */
public final class JdbcTransitionCosts {

	private static final String TABLE = "modelgate_idempotency_costs";

	private static final String BUSINESS_TABLE = "modelgate_idempotency_costs_business";

	private static final Duration LEASE = Duration.ofMinutes(5);

	private static final StoredOutcome OUTCOME = new StoredOutcome(StoredOutcome.Kind.RESPONSE,
			"{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\"}".repeat(20).getBytes(StandardCharsets.UTF_8));

	private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

	private JdbcTransitionCosts() {
	}

	public static void main(String[] args) {
		int calls = (args.length > 0) ? Integer.parseInt(args[0]) : 2000;
		try (HikariDataSource dataSource = new HikariDataSource()) {
			dataSource.setJdbcUrl("jdbc:postgresql://" + env("PGHOST", "127.0.0.1") + ":" + env("PGPORT", "5432") + "/"
					+ env("PGDATABASE", "test"));
			dataSource.setUsername(env("PGUSER", "postgres"));
			dataSource.setMaximumPoolSize(4);
			JdbcTemplate jdbc = new JdbcTemplate(dataSource);
			jdbc.execute("DROP TABLE IF EXISTS " + TABLE + "_events, " + TABLE + ", " + BUSINESS_TABLE);
			JdbcIdempotencySchema.create(dataSource, TABLE);
			jdbc.execute("CREATE TABLE " + BUSINESS_TABLE + " (id BIGSERIAL PRIMARY KEY, scope VARCHAR(64) NOT NULL)");
			JdbcIdempotencyStore store = new JdbcIdempotencyStore(jdbc, TABLE);
			DataSourceTransactionManager plainManager = new DataSourceTransactionManager(dataSource);
			DataSourceTransactionManager markingManager = new DataSourceTransactionManager(dataSource);
			markingManager.addListener(new MarkAppliedTransactionListener(store));
			TransactionTemplate plain = new TransactionTemplate(plainManager);
			TransactionTemplate marking = new TransactionTemplate(markingManager);

			// Warm up every path (and let pgjdbc switch to server-side prepared statements) first.
			for (int pass = 0; pass < 2; pass++) {
				boolean report = pass == 1;
				String[] scopes = hexes(calls);
				String[] tokens = hexes(calls);
				List<String> lines = new ArrayList<>();
				lines.add(measure("begin, new key", calls, (i) -> expect(
						store.begin(scopes[i], "fp", tokens[i], LEASE), BeginResult.Outcome.ACQUIRED)));
				lines.add(measure("complete", calls, (i) -> store.complete(scopes[i], tokens[i], OUTCOME, LEASE)));
				lines.add(measure("begin, replay", calls, (i) -> expect(
						store.begin(scopes[i], "fp", UUID.randomUUID().toString(), LEASE), BeginResult.Outcome.COMPLETED)));
				String[] held = hexes(calls);
				String[] heldTokens = hexes(calls);
				for (int i = 0; i < calls; i++) {
					store.begin(held[i], "fp", heldTokens[i], LEASE);
				}
				lines.add(measure("begin, in progress", calls, (i) -> expect(
						store.begin(held[i], "fp", UUID.randomUUID().toString(), LEASE), BeginResult.Outcome.IN_PROGRESS)));
				lines.add(measure("business transaction (2 inserts)", calls,
						(i) -> plain.executeWithoutResult((status) -> business(jdbc, held[i]))));
				lines.add(measure("the same with the applied mark", calls, (i) -> {
					try (IdempotencyContext.Binding binding = IdempotencyContext
						.bind(new IdempotencyContext.Held(held[i], heldTokens[i]))) {
						marking.executeWithoutResult((status) -> business(jdbc, held[i]));
					}
				}));
				if (report) {
					System.out.println("| operation | calls | p50 µs | p90 µs | CPU µs per call (calling thread) |");
					System.out.println("|---|---|---|---|---|");
					lines.forEach(System.out::println);
				}
			}
		}
	}

	private static void business(JdbcTemplate jdbc, String scope) {
		jdbc.update("INSERT INTO " + BUSINESS_TABLE + " (scope) VALUES (?)", scope);
		jdbc.update("INSERT INTO " + BUSINESS_TABLE + " (scope) VALUES (?)", scope);
	}

	private static String measure(String name, int calls, IntConsumer call) {
		long[] wall = new long[calls];
		long cpu0 = THREADS.getCurrentThreadCpuTime();
		for (int i = 0; i < calls; i++) {
			long start = System.nanoTime();
			call.accept(i);
			wall[i] = System.nanoTime() - start;
		}
		long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
		Arrays.sort(wall);
		return String.format("| %s | %d | %.0f | %.0f | %.1f |", name, calls, wall[calls / 2] / 1e3,
				wall[calls * 9 / 10] / 1e3, cpu / 1e3 / calls);
	}

	private static void expect(BeginResult result, BeginResult.Outcome outcome) {
		if (result.outcome() != outcome) {
			throw new IllegalStateException("expected " + outcome + ", got " + result.outcome());
		}
	}

	private static String[] hexes(int count) {
		String[] hexes = new String[count];
		for (int i = 0; i < count; i++) {
			hexes[i] = UUID.randomUUID().toString().replace("-", "");
		}
		return hexes;
	}

	private static String env(String name, String fallback) {
		String value = System.getenv(name);
		return (value != null && !value.isBlank()) ? value : fallback;
	}

}
