package dev.modelgate.sample.error;

import java.time.Duration;

import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.LeaseLostException;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionSystemException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.mockito.Mockito.mock;

/**
 * The errors the reliability suite saw answered with 500 while PostgreSQL went away or a lease ran
 * out (docs/RELIABILITY.md): each now gets a status a client can act on, with a retry hint.
 */
class OpenAiExceptionHandlerTests {

	private final OpenAiExceptionHandler handler = new OpenAiExceptionHandler(Duration.ofMillis(1500));

	@Test
	void lostLeaseIsAnsweredAsRequestInProgress() {
		// What the JDBC store throws from a business transaction whose attempt no longer holds its key.
		LeaseLostException lost = catchThrowableOfType(LeaseLostException.class,
				() -> new JdbcIdempotencyStore(mock(JdbcTemplate.class), "modelgate_idempotency").markApplied("scope",
						"stale-token"));

		ResponseEntity<OpenAiError> response = this.handler.leaseLost(lost);

		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
		assertThat(response.getBody().error().code()).isEqualTo("idempotency_request_in_progress");
		assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("2");
	}

	@Test
	void unreachableDatabaseIsAnsweredAsServiceUnavailable() {
		ResponseEntity<OpenAiError> response = this.handler
			.databaseUnavailable(new CannotGetJdbcConnectionException("Connection refused"));

		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
		assertThat(response.getBody().error().code()).isEqualTo("service_unavailable");
		assertThat(response.getBody().error().type()).isEqualTo(OpenAiError.SERVER_ERROR);
		assertThat(response.getHeaders().getFirst("Retry-After")).isEqualTo("2");
	}

	@Test
	void failedRollbackOnALostConnectionIsAnsweredAsServiceUnavailable() {
		ResponseEntity<OpenAiError> response = this.handler
			.databaseUnavailable(new TransactionSystemException("JDBC rollback failed"));

		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
	}

}
