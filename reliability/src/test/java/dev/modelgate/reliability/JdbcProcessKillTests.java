package dev.modelgate.reliability;

import java.util.OptionalLong;

import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} at each window, the gateways on one PostgreSQL with the JDBC store and the credit
 * ledger on the same database (the sample app's {@code postgres} profile). Until the charge commits
 * the windows are those of any store; once it has, the record is marked applied in the same
 * transaction, and a retry is told the operation ran (410) instead of running and charging again.
 */
class JdbcProcessKillTests extends AbstractProcessKillTests {

	@Override
	protected StoreServer startStore(String scenario) {
		return PostgresServer.start(scenario);
	}

	@Override
	protected String scenario() {
		return "process-kill-postgresql";
	}

	@Override
	protected OptionalLong charges(StoreServer store) {
		return OptionalLong.of(((PostgresServer) store).creditCharges());
	}

	@Override
	protected String afterChargePromise() {
		return "window 1 closed for database effects: 409 while the lease lives, then 410; 1 call, 1 charge";
	}

	@Override
	protected void assertAfterCharge(Outcome outcome) {
		assertThat(Gateway.isConnectionLoss(outcome.victimAnswer())).as("the killed gateway sent nothing").isTrue();
		assertThat(outcome.firstRetry().status()).isEqualTo(409);
		assertThat(outcome.served().status()).isEqualTo(410);
		assertThat(outcome.served().code()).isEqualTo("idempotency_result_unavailable");
		assertThat(outcome.confirmation().status()).isEqualTo(410);
		assertThat(outcome.upstreamCalls()).isEqualTo(1);
		assertThat(outcome.charges()).hasValue(1);
	}

}
