package dev.modelgate.reliability;

import java.util.OptionalLong;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lease that runs out during a stop-the-world pause, the gateways on PostgreSQL with the credit
 * ledger on the store's database: the paused holder's charge cannot mark the key applied, so its
 * transaction rolls back and only the new holder's charge stands; its client is told to retry.
 */
class JdbcLeaseExpiryTests extends AbstractLeaseExpiryTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "lease-expiry-postgresql";
	}

	@Override
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.of(((PostgresServer) store).creditCharges());
	}

	@Override
	protected String refusal() {
		return "its charge rolled back: the applied mark refused";
	}

	@Override
	protected String refusalLogLine() {
		return "was lost to another attempt";
	}

	@Override
	protected void assertStaleHolder(Answer staleHolder, Answer newHolder, SampleApp staleGateway) {
		assertThat(staleHolder.status()).isEqualTo(409);
		assertThat(staleHolder.code()).isEqualTo("idempotency_request_in_progress");
		assertThat(staleHolder.header("Retry-After")).isNotNull();
	}

}
