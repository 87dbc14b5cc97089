package dev.modelgate.idempotency.core;

import java.net.ConnectException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A store failure's log line names its root cause, so an operator sees "connection refused" and where. */
class IdempotencyStoreExceptionTests {

	@Test
	void describeAddsTheRootCause() {
		IdempotencyStoreException failure = new IdempotencyStoreException("begin failed on Redis key k",
				new IllegalStateException("wrapped", new ConnectException("Connection refused: /127.0.0.1:6390")));

		assertThat(failure.describe())
			.isEqualTo("begin failed on Redis key k: ConnectException: Connection refused: /127.0.0.1:6390");
	}

	@Test
	void describeIsTheMessageWhenThereIsNoCauseToAdd() {
		assertThat(new IdempotencyStoreException("store is full").describe()).isEqualTo("store is full");
		assertThat(new IdempotencyStoreException("timed out: took 2s", new RuntimeException("took 2s")).describe())
			.isEqualTo("timed out: took 2s");
	}

}
