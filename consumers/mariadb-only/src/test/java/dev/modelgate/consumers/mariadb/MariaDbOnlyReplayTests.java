package dev.modelgate.consumers.mariadb;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.consumers.support.ReplayScenario;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with the starter, Spring MVC, Spring JDBC and the MariaDB driver (no Redis) starts,
 * that {@code store=auto} picks the JDBC store on MariaDB, replays a retry with the same key and body without running
 * the handler again, rejects the key with another body, and that a payment committed in a business transaction is
 * never made twice, even when its response was lost.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MariaDbOnlyReplayTests extends ReplayScenario {

	private static final HttpClient HTTP = HttpClient.newHttpClient();

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private PaymentController payments;

	@Autowired
	private IdempotencyStore store;

	@Autowired
	private JdbcTemplate jdbc;

	@Value("${modelgate.idempotency.jdbc.table-name}")
	private String table;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

	@Test
	void theStoreIsTheJdbcStoreWithItsRecordsInTheConfiguredMariaDbTable() throws Exception {
		assertThat(this.store).isInstanceOf(JdbcIdempotencyStore.class);
		HttpResponse<byte[]> first = post(UUID.randomUUID().toString(), ORDER);
		assertThat(first.statusCode()).as(describe(first)).isBetween(200, 299);
		assertThat(this.jdbc.queryForObject("SELECT count(*) FROM " + this.table + " WHERE state = 'completed'",
				Integer.class)).isPositive();
	}

	@Test
	void aPaymentThatCommittedIsNeverMadeAgainEvenWhenItsResponseWasLost() throws Exception {
		String key = UUID.randomUUID().toString();
		int before = this.payments.invocations();
		int paidBefore = paid();

		HttpResponse<byte[]> lost = pay(key);
		assertThat(lost.statusCode()).as(describe(lost)).isEqualTo(500);
		assertThat(paid()).isEqualTo(paidBefore + 1);

		// A 500 releases the key, but the record was marked applied in the payment's transaction: the retry is
		// told that the payment ran instead of paying again.
		HttpResponse<byte[]> retry = pay(key);
		assertThat(retry.statusCode()).as(describe(retry)).isEqualTo(410);
		assertThat(new String(retry.body(), StandardCharsets.UTF_8)).contains("idempotency_result_unavailable");
		assertThat(this.payments.invocations()).as("handler runs").isEqualTo(before + 1);
		assertThat(paid()).isEqualTo(paidBefore + 1);
	}

	private HttpResponse<byte[]> pay(String key) throws Exception {
		HttpRequest request = HttpRequest
			.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/payments?failAfterCommit=true"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(ORDER))
			.build();
		return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
	}

	private int paid() {
		return this.jdbc.queryForObject("SELECT count(*) FROM modelgate_consumer_mariadb_payments", Integer.class);
	}

}
