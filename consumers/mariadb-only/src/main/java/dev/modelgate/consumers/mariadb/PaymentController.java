package dev.modelgate.consumers.mariadb;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * An idempotent payment written in a business transaction on the same MariaDB as the idempotency records: the
 * starter marks the record applied in that transaction, so a retry after the payment committed never pays again,
 * even when the response is lost ({@code failAfterCommit}).
 */
@RestController
public class PaymentController {

	private final AtomicInteger invocations = new AtomicInteger();

	private final JdbcTemplate jdbc;

	private final TransactionTemplate transactions;

	public PaymentController(JdbcTemplate jdbc, PlatformTransactionManager transactionManager) {
		this.jdbc = jdbc;
		this.transactions = new TransactionTemplate(transactionManager);
	}

	@PostMapping(path = "/payments", consumes = MediaType.APPLICATION_JSON_VALUE,
			produces = MediaType.APPLICATION_JSON_VALUE)
	@Idempotent
	public ResponseEntity<Map<String, Object>> pay(@RequestBody Map<String, Object> request,
			@RequestParam(defaultValue = "false") boolean failAfterCommit) {
		this.invocations.incrementAndGet();
		String id = UUID.randomUUID().toString();
		this.transactions.executeWithoutResult((status) -> this.jdbc
			.update("INSERT INTO modelgate_consumer_mariadb_payments (id, request) VALUES (?, ?)", id, request.toString()));
		if (failAfterCommit) {
			throw new IllegalStateException("The payment " + id + " committed, and then its response was lost");
		}
		return ResponseEntity.status(HttpStatus.CREATED).body(Map.of("id", id));
	}

	/**
	 * How many times the handler has run since the application started.
	 */
	public int invocations() {
		return this.invocations.get();
	}

}
