package dev.modelgate.idempotency.core;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The template tells the listeners what it decides, with the same outcomes as the web filter, so
 * that {@code @IdempotentOperation} methods and template calls show up in the same metrics.
 */
class IdempotencyTemplateDecisionsTests {

	private final List<IdempotencyDecision> decisions = new CopyOnWriteArrayList<>();

	private final List<IdempotencyListener.ResponseKind> responses = new CopyOnWriteArrayList<>();

	private final IdempotencyCoordinator coordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(),
			Duration.ofSeconds(2));

	private final IdempotencyTemplate template = new IdempotencyTemplate(this.coordinator,
			IdempotencyTemplate.Defaults.standard(), List.of(new IdempotencyListener() {

				@Override
				public void onDecision(IdempotencyDecision decision) {
					IdempotencyTemplateDecisionsTests.this.decisions.add(decision);
				}

				@Override
				public void onResponse(ResponseKind kind, String method, String route, Duration duration) {
					IdempotencyTemplateDecisionsTests.this.responses.add(kind);
				}

			}));

	@AfterEach
	void closeCoordinator() {
		this.coordinator.close();
	}

	@Test
	void reportsAcquiredRecordedThenReplayed() {
		IdempotentCall<String> call = IdempotentCall.of("mail.send", "key-1", ResultCodec.utf8());
		this.template.execute(call, () -> "sent");
		this.template.execute(call, () -> "sent again");

		assertThat(this.decisions).extracting(IdempotencyDecision::outcome)
			.containsExactly(IdempotencyOutcome.ACQUIRED, IdempotencyOutcome.RECORDED, IdempotencyOutcome.REPLAYED);
		assertThat(this.decisions).allSatisfy((decision) -> {
			assertThat(decision.method()).isEqualTo(IdempotencyDecision.OPERATION);
			assertThat(decision.route()).isEqualTo("mail.send");
			assertThat(decision.scope()).isNotBlank().doesNotContain("key-1");
		});
		assertThat(this.responses).containsExactly(IdempotencyListener.ResponseKind.FIRST,
				IdempotencyListener.ResponseKind.REPLAY);
	}

	@Test
	void reportsReleasedForARetryableFailure() {
		IdempotentCall<String> call = IdempotentCall.of("mail.send", "key-2", ResultCodec.utf8());
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> this.template.execute(call, () -> {
			throw new IllegalStateException("try again");
		}));

		assertThat(this.decisions).extracting(IdempotencyDecision::outcome)
			.containsExactly(IdempotencyOutcome.ACQUIRED, IdempotencyOutcome.RELEASED);
	}

	@Test
	void reportsMismatchForAKeyReusedWithAnotherFingerprint() {
		this.template.execute(IdempotentCall.of("mail.send", "key-3", ResultCodec.utf8()).withFingerprint("to=a"),
				() -> "sent");
		this.decisions.clear();

		assertThatExceptionOfType(IdempotencyKeyReusedException.class).isThrownBy(() -> this.template
			.execute(IdempotentCall.of("mail.send", "key-3", ResultCodec.utf8()).withFingerprint("to=b"), () -> "x"));
		assertThat(this.decisions).extracting(IdempotencyDecision::outcome)
			.containsExactly(IdempotencyOutcome.MISMATCH);
	}

}
