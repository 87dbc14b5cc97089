package dev.modelgate.idempotency.core;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.FailurePolicy.Action;

import static org.assertj.core.api.Assertions.assertThat;

class FailurePolicyTests {

	@Test
	void standardPolicyReleasesEverythingButUnknownOutcomes() {
		FailurePolicy policy = FailurePolicy.standard();

		assertThat(policy.classify(new IllegalStateException())).isEqualTo(Action.RELEASE);
		assertThat(policy.classify(new IOException())).isEqualTo(Action.RELEASE);
		assertThat(policy.classify(new OutcomeUnknownException("timed out"))).isEqualTo(Action.UNKNOWN);
	}

	@Test
	void nearestMappedSuperclassDecides() {
		FailurePolicy policy = FailurePolicy.standard()
			.recordOn(IOException.class)
			.retryOn(FileNotFoundException.class);

		assertThat(policy.classify(new FileNotFoundException())).isEqualTo(Action.RELEASE);
		assertThat(policy.classify(new SocketTimeoutException())).isEqualTo(Action.RECORD);
	}

	@Test
	void causesAreLookedAtWhenTheFailureItselfIsNotMapped() {
		FailurePolicy policy = FailurePolicy.standard().unknownOn(SocketTimeoutException.class);

		assertThat(policy.classify(new UncheckedIOException(new SocketTimeoutException()))).isEqualTo(Action.UNKNOWN);
		assertThat(policy.classify(new UncheckedIOException(new IOException()))).isEqualTo(Action.RELEASE);
	}

	@Test
	void theFailureItselfWinsOverItsCauses() {
		FailurePolicy policy = FailurePolicy.standard()
			.recordOn(IllegalArgumentException.class)
			.unknownOn(SocketTimeoutException.class);

		assertThat(policy.classify(new IllegalArgumentException(new SocketTimeoutException())))
			.isEqualTo(Action.RECORD);
	}

	@Test
	void otherwiseAppliesToUnmappedExceptionsButNotToErrors() {
		FailurePolicy policy = FailurePolicy.standard().otherwise(Action.RECORD);

		assertThat(policy.classify(new IllegalStateException())).isEqualTo(Action.RECORD);
		assertThat(policy.classify(new OutOfMemoryError())).isEqualTo(Action.RELEASE);
		assertThat(policy.classify(new OutcomeUnknownException("timed out"))).isEqualTo(Action.UNKNOWN);
	}

	@Test
	void unknownOutcomeCanBeMappedOtherwise() {
		assertThat(FailurePolicy.standard().retryOn(OutcomeUnknownException.class)
			.classify(new OutcomeUnknownException("timed out"))).isEqualTo(Action.RELEASE);
	}

	@Test
	void causeCycleEnds() {
		IllegalStateException first = new IllegalStateException();
		IllegalArgumentException second = new IllegalArgumentException(first);
		first.initCause(second);

		assertThat(FailurePolicy.standard().classify(first)).isEqualTo(Action.RELEASE);
	}

	@Test
	void policiesAreImmutable() {
		FailurePolicy standard = FailurePolicy.standard();
		standard.recordOn(IllegalStateException.class);

		assertThat(standard.classify(new IllegalStateException())).isEqualTo(Action.RELEASE);
	}

}
