package dev.modelgate.idempotency.core.internal;

import dev.modelgate.idempotency.core.IdempotencyListener;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * A recorded stream's appends and its time to first event reach every listener, in order, and a
 * listener that throws does not keep them from the next one.
 */
class DecisionReporterStreamTests {

	private final List<String> told = new CopyOnWriteArrayList<>();

	@Test
	void streamAppendsAndTimeToFirstEventReachEveryListenerPastOneThatThrows() {
		IdempotencyListener failing = new IdempotencyListener() {

			@Override
			public void onStreamAppend(String method, String route, int events, long bytes) {
				throw new IllegalStateException("broken listener");
			}

			@Override
			public void onStreamFirstEvent(String method, String route, Duration added) {
				throw new IllegalStateException("broken listener");
			}

		};
		IdempotencyListener recording = new IdempotencyListener() {

			@Override
			public void onStreamAppend(String method, String route, int events, long bytes) {
				DecisionReporterStreamTests.this.told.add(method + " " + route + " " + events + " events " + bytes + " bytes");
			}

			@Override
			public void onStreamFirstEvent(String method, String route, Duration added) {
				DecisionReporterStreamTests.this.told.add(method + " " + route + " first event +" + added.toMillis() + "ms");
			}

		};
		DecisionReporter reporter = DecisionReporter.of(List.of(failing, recording));

		reporter.streamFirstEvent("POST", "/v1/chat/completions", Duration.ofMillis(3));
		reporter.streamAppended("POST", "/v1/chat/completions", 2, 210);

		assertThat(this.told).containsExactly("POST /v1/chat/completions first event +3ms",
				"POST /v1/chat/completions 2 events 210 bytes");
	}

	@Test
	void listenersWrittenBeforeStreamsAreToldNothingAndNeedNoChange() {
		DecisionReporter reporter = DecisionReporter.of(List.of(IdempotencyListener.NONE));

		assertThatCode(() -> {
			reporter.streamAppended("POST", "/events", 1, 100);
			reporter.streamFirstEvent("POST", "/events", Duration.ofMillis(1));
		}).doesNotThrowAnyException();
	}

}
