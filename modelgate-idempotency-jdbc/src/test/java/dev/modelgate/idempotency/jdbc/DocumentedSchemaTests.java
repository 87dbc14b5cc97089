package dev.modelgate.idempotency.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ByteArrayResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DDL that docs/STORES.md prints for Flyway or Liquibase is, byte for byte, the script the JDBC
 * module ships for each database, and, run as a user would run it (its placeholders replaced), it
 * makes tables the store works on, on the real PostgreSQL and MariaDB servers.
 */
@Tag("store")
class DocumentedSchemaTests {

	private static final Pattern SCHEMA_BLOCK = Pattern
		.compile("(?m)^<!-- schema: (\\S+) -->\\n```sql\\n(.*?)^```$", Pattern.DOTALL);

	private static final String TABLE = "documented_ddl_idempotency";

	private static final Duration LONG = Duration.ofMinutes(5);

	@Test
	void theStoresGuidePrintsEachShippedScriptExactly() throws IOException {
		Map<String, String> printed = printedScripts();

		assertThat(printed).containsOnlyKeys(JdbcIdempotencySchema.POSTGRESQL, JdbcIdempotencySchema.MARIADB);
		for (Map.Entry<String, String> script : printed.entrySet()) {
			assertThat(script.getValue()).as("docs/STORES.md's block for %s", script.getKey())
				.isEqualTo(shipped(script.getKey()));
		}
	}

	@Test
	void thePrintedPostgresqlDdlMakesATableTheStoreWorksOn() throws IOException {
		runThePrintedDdlAndUseTheStore(TestDatabase.POSTGRESQL, JdbcIdempotencySchema.POSTGRESQL);
	}

	@Test
	void thePrintedMariaDbDdlMakesATableTheStoreWorksOn() throws IOException {
		runThePrintedDdlAndUseTheStore(TestDatabase.MARIADB, JdbcIdempotencySchema.MARIADB);
	}

	private static void runThePrintedDdlAndUseTheStore(TestDatabase database, String location) throws IOException {
		String ddl = printedScripts().get(location)
			.replace("%TABLE_NAME%", TABLE)
			.replace("%TABLE_BASE_NAME%", TABLE);
		JdbcTemplate jdbc = database.jdbcTemplate();
		jdbc.execute("DROP TABLE IF EXISTS " + TABLE + "_events, " + TABLE);
		new ResourceDatabasePopulator(new ByteArrayResource(ddl.getBytes(StandardCharsets.UTF_8))).execute(database.dataSource());
		// A second run, as on every start-up with initialize-schema=always, finds everything there.
		new ResourceDatabasePopulator(new ByteArrayResource(ddl.getBytes(StandardCharsets.UTF_8))).execute(database.dataSource());

		JdbcIdempotencyStore store = database.store(jdbc, TABLE);
		StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.VALUE, "42".getBytes(StandardCharsets.UTF_8));
		assertThat(store.begin("answer", "fp", "t1", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		assertThat(store.complete("answer", "t1", outcome, LONG)).isTrue();
		assertThat(store.begin("answer", "fp", "t2", LONG).stored()).as("replayed from the documented table")
			.isEqualTo(outcome);
		assertThat(store.begin("stream", "fp", "t3", LONG).outcome()).isEqualTo(BeginResult.Outcome.ACQUIRED);
		assertThat(store.openStream("stream", "t3", new byte[] { 1 })).isTrue();
		assertThat(store.appendEvents("stream", "t3", 1, List.of(new byte[] { 2 }))).isTrue();
		assertThat(store.completeStream("stream", "t3", LONG)).isTrue();
		assertThat(store.readStream("stream", 0, 10)).as("recorded in the documented events table")
			.hasValueSatisfying((slice) -> assertThat(slice.events()).hasSize(1));
		jdbc.execute("DROP TABLE IF EXISTS " + TABLE + "_events, " + TABLE);
	}

	/** The fenced blocks of docs/STORES.md, by the resource each names in its {@code <!-- schema: -->} line. */
	private static Map<String, String> printedScripts() throws IOException {
		String guide = Files.readString(Path.of("..", "docs", "STORES.md"));
		Map<String, String> scripts = new LinkedHashMap<>();
		Matcher block = SCHEMA_BLOCK.matcher(guide);
		while (block.find()) {
			assertThat(scripts.put(block.group(1), block.group(2))).as("printed twice: %s", block.group(1)).isNull();
		}
		return scripts;
	}

	private static String shipped(String location) throws IOException {
		try (InputStream in = JdbcIdempotencySchema.class.getClassLoader().getResourceAsStream(location)) {
			assertThat(in).as(location).isNotNull();
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
