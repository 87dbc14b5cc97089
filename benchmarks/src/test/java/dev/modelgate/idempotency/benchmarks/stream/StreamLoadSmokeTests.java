package dev.modelgate.idempotency.benchmarks.stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.benchmarks.stream.StreamLoad.Mode;
import dev.modelgate.idempotency.benchmarks.stream.StreamLoad.Result;
import dev.modelgate.idempotency.benchmarks.stream.StreamServers.Store;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the stream load briefly on the memory server, so that the build proves it still works; the
 * numbers mean nothing here (see docs/BENCHMARKS.md for real runs, on every store).
 */
@Tag("process")
class StreamLoadSmokeTests {

	@Test
	void unannotatedAndRecordedStreamsAreTimedAndTheirStoreCallsCounted() throws Exception {
		try (StreamServers servers = StreamServers.start(Store.MEMORY)) {
			StreamLoad load = new StreamLoad(servers, 5, 0);
			Result plain = load.measure(Mode.PLAIN, 2, 4);
			Result recorded = load.measure(Mode.MEMORY, 2, 4);

			assertThat(plain.firstEventP50Micros()).isPositive();
			assertThat(plain.storeCallsPerStream()).isZero();
			assertThat(recorded.firstEventP50Micros()).isPositive();
			assertThat(recorded.eventsPerSecond()).isPositive();
			// begin, openStream, completeStream and at least one append per stream.
			assertThat(recorded.storeCallsPerStream()).isGreaterThanOrEqualTo(4);
			assertThat(recorded.appendsPerEvent()).isPositive().isLessThanOrEqualTo(1);
			assertThat(recorded.addedMicros()).as("the library's own timer of the time added").isPositive();
			assertThat(plain.addedMicros()).isZero();
		}
	}

}
