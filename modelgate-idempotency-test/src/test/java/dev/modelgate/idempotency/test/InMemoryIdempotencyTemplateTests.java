package dev.modelgate.idempotency.test;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.Reconciliation;
import dev.modelgate.idempotency.core.ResultCodec;
import dev.modelgate.idempotency.core.StoredOutcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The template contract on the in-memory store, and what needs a store that can be made to fail.
 */
class InMemoryIdempotencyTemplateTests extends IdempotencyTemplateContractTests {

	@Override
	protected IdempotencyStore createStore() {
		return new InMemoryIdempotencyStore();
	}

	@Test
	void storeThatCannotBeAskedStopsTheWorkFromRunning() {
		AtomicInteger runs = new AtomicInteger();
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(new FailingStore(true),
				Duration.ofSeconds(1))) {
			IdempotencyTemplate template = new IdempotencyTemplate(coordinator);

			assertThatExceptionOfType(IdempotencyStoreException.class).isThrownBy(() -> template
				.execute("mail.send", UUID.randomUUID().toString(), ResultCodec.utf8(), () -> runs.incrementAndGet() + ""));
		}
		assertThat(runs).hasValue(0);
	}

	@Test
	void resultIsReturnedWhenItCannotBeRecorded() {
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(new FailingStore(false),
				Duration.ofSeconds(1))) {
			IdempotencyTemplate template = new IdempotencyTemplate(coordinator);

			String result = template.execute("mail.send", UUID.randomUUID().toString(), ResultCodec.utf8(),
					() -> "sent");

			assertThat(result).isEqualTo("sent");
		}
	}

	@Test
	void unknownOutcomeRoundsAreBounded() {
		try (IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(),
				Duration.ofSeconds(1))) {
			IdempotencyTemplate template = new IdempotencyTemplate(coordinator);
			AtomicInteger runs = new AtomicInteger();
			IdempotentCall<String> call = IdempotentCall.of("mail.send", UUID.randomUUID().toString(), ResultCodec.utf8())
				.withReconciler(Reconciliation::notFound);
			for (int i = 0; i < IdempotencyTemplate.MAX_ROUNDS; i++) {
				assertThatExceptionOfType(OutcomeUnknownException.class).isThrownBy(() -> template.execute(call, () -> {
					runs.incrementAndGet();
					throw new OutcomeUnknownException("timed out");
				}));
			}

			assertThatExceptionOfType(OutcomeUnknownException.class)
				.isThrownBy(() -> template.execute(call, () -> "sent"))
				.withMessageContaining(IdempotencyTemplate.MAX_ROUNDS + " times");
			assertThat(runs).hasValue(IdempotencyTemplate.MAX_ROUNDS);
		}
	}

	/** Fails every call, or only the ones after {@code begin} (the store went down while the work ran). */
	private static final class FailingStore extends InMemoryIdempotencyStore {

		private final boolean failBegin;

		FailingStore(boolean failBegin) {
			this.failBegin = failBegin;
		}

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			if (this.failBegin) {
				throw new IdempotencyStoreException("connection refused");
			}
			return super.begin(scope, fingerprint, token, leaseTtl);
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome response, Duration ttl) {
			throw new IdempotencyStoreException("connection refused");
		}

		@Override
		public boolean release(String scope, String token) {
			throw new IdempotencyStoreException("connection refused");
		}

	}

}
