package dev.modelgate.sample;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.init.ScriptUtils;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import dev.modelgate.sample.billing.CreditLedger;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.header;
import static dev.modelgate.sample.GatewayClient.json;
import static dev.modelgate.sample.GatewayClient.newKey;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The postgres profile on the real PostgreSQL server (PGHOST/PGPORT/PGDATABASE/PGUSER, default
 * 127.0.0.1:5432/test/postgres): idempotency records and credit balances in one database, so a
 * retried completion is never charged twice, even when the process fails after the charge committed.
 */
@ActiveProfiles("postgres")
@TestPropertySource(properties = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_test")
@Import(PostgresBillingTests.CrashAfterCharge.class)
class PostgresBillingTests extends StubbedProviderTests {

	/** Requests from this client fail right after their charge commits, like a process dying there. */
	static final String CRASHING_CLIENT = "Bearer crash-after-charge";

	@Autowired
	JdbcTemplate jdbc;

	@Autowired
	CreditLedger ledger;

	private static String newClient() {
		return "Bearer " + UUID.randomUUID();
	}

	private int charges(String authorization) {
		return this.jdbc.queryForObject("SELECT count(*) FROM credit_charges WHERE client = ?", Integer.class,
				ClientIdentity.of(authorization));
	}

	/**
	 * Gateways that start together on a fresh database all run the billing schema script; without
	 * taking turns, one failed start-up on a catalog unique index (found by the reliability suite).
	 */
	@Test
	void billingSchemaScriptRunsConcurrentlyOnAFreshDatabase() throws Exception {
		String schema = "billing_race_" + UUID.randomUUID().toString().replace("-", "");
		this.jdbc.execute("CREATE " + schemaKind() + " " + schema);
		int instances = 8;
		ExecutorService pool = Executors.newFixedThreadPool(instances);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<?>> runs = new ArrayList<>();
		try {
			for (int i = 0; i < instances; i++) {
				runs.add(pool.submit(() -> {
					start.await();
					try (Connection connection = this.jdbc.getDataSource().getConnection()) {
						runBillingScriptIn(connection, schema);
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> run : runs) {
				run.get(60, TimeUnit.SECONDS);
			}
			assertThat(this.jdbc.queryForObject("SELECT count(*) FROM information_schema.tables WHERE table_schema = ?",
					Integer.class, schema)).isEqualTo(2);
		}
		finally {
			pool.shutdownNow();
			this.jdbc.execute("DROP " + schemaKind() + " " + schema + dropOptions());
		}
	}

	/** What holds a set of tables: a schema here, a database on MariaDB. */
	String schemaKind() {
		return "SCHEMA";
	}

	String dropOptions() {
		return " CASCADE";
	}

	/** Runs the profile's billing script with {@code schema} as the connection's default for unqualified tables. */
	void runBillingScriptIn(Connection connection, String schema) throws SQLException {
		connection.createStatement().execute("SET search_path TO " + schema);
		ScriptUtils.executeSqlScript(connection, new ClassPathResource("billing/schema.sql"));
		connection.createStatement().execute("RESET search_path");
	}

	@Test
	void retriesOfOneKeyAreChargedOnce() {
		String client = newClient();
		String key = newKey();
		String request = chatRequest();
		HttpResponse<byte[]> first = this.gateway.chat(request, "Idempotency-Key", key, "Authorization", client);
		long tokens = json(first).path("usage").path("total_tokens").asLong();
		for (int i = 0; i < 3; i++) {
			HttpResponse<byte[]> retry = this.gateway.chat(request, "Idempotency-Key", key, "Authorization", client);
			assertThat(header(retry, "Idempotent-Replayed")).isEqualTo("true");
		}
		assertThat(charges(client)).isEqualTo(1);
		assertThat(this.ledger.balance(ClientIdentity.of(client))).isEqualTo(CreditLedger.OPENING_BALANCE - tokens);
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void requestsWithoutKeyAreChargedEachTime() {
		String client = newClient();
		this.gateway.chat(chatRequest(), "Authorization", client);
		this.gateway.chat(chatRequest(), "Authorization", client);
		assertThat(charges(client)).isEqualTo(2);
	}

	@Test
	void concurrentDuplicatesAreChargedOnce() throws Exception {
		String client = newClient();
		String key = newKey();
		String request = chatRequest();
		int threads = 16;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<HttpResponse<byte[]>>> answers = new ArrayList<>();
		for (int i = 0; i < threads; i++) {
			answers.add(pool.submit(() -> {
				start.await();
				return this.gateway.chat(request, "Idempotency-Key", key, "Authorization", client);
			}));
		}
		start.countDown();
		for (Future<HttpResponse<byte[]>> answer : answers) {
			assertThat(answer.get(30, TimeUnit.SECONDS).statusCode()).isIn(200, 409);
		}
		pool.shutdown();
		assertThat(charges(client)).isEqualTo(1);
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@Test
	void failureAfterTheChargeCommittedIsNeverChargedAgain() {
		String key = newKey();
		String request = chatRequest();
		int before = charges(CRASHING_CLIENT);

		HttpResponse<byte[]> failed = this.gateway.chat(request, "Idempotency-Key", key, "Authorization",
				CRASHING_CLIENT);
		HttpResponse<byte[]> retry = this.gateway.chat(request, "Idempotency-Key", key, "Authorization",
				CRASHING_CLIENT);

		assertThat(failed.statusCode()).isEqualTo(500);
		assertThat(retry.statusCode()).isEqualTo(410);
		assertThat(json(retry).path("error").path("code").asString()).isEqualTo("idempotency_result_unavailable");
		assertThat(charges(CRASHING_CLIENT)).isEqualTo(before + 1);
		assertThat(upstream.calls()).isEqualTo(1);
	}

	@TestConfiguration(proxyBeanMethods = false)
	static class CrashAfterCharge {

		@Bean
		@Primary
		CreditLedger crashingAfterChargeLedger(@Qualifier("creditLedger") CreditLedger ledger) {
			return new CreditLedger() {

				@Override
				public void charge(String client, long credits) {
					ledger.charge(client, credits);
					if (client.equals(ClientIdentity.of(CRASHING_CLIENT))) {
						throw new IllegalStateException("simulated failure after the charge committed");
					}
				}

				@Override
				public long balance(String client) {
					return ledger.balance(client);
				}

			};
		}

	}

}
