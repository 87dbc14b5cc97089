package dev.modelgate.idempotency.benchmarks;

import java.util.Collection;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every benchmark once, briefly and in this JVM, so that the build proves they still work
 * (the replica acknowledgement benchmark starts its own redis-server processes).
 * The numbers mean nothing here; real runs use the benchmarks jar (see docs/BENCHMARKS.md).
 */
@Tag("process")
class BenchmarksSmokeTests {

	@Test
	void everyBenchmarkCompletesOneShortIteration() throws RunnerException {
		Options options = new OptionsBuilder().include("dev\\.modelgate\\.idempotency\\..*Benchmark\\..*")
			.forks(0)
			.warmupIterations(0)
			.measurementIterations(1)
			.measurementTime(TimeValue.milliseconds(50))
			.shouldFailOnError(true)
			// 16 threads waiting for a replica on a two-core machine that is building as well: 500 ms
			// was seen to run out in CI, which says nothing about whether the benchmark works.
			.param("acknowledgementTimeoutMillis", "1500")
			.build();
		Collection<RunResult> results = new Runner(options).run();
		assertThat(results).extracting((result) -> result.getParams().getBenchmark())
			.contains("dev.modelgate.idempotency.benchmarks.KeyParsingBenchmark.plainToken",
					"dev.modelgate.idempotency.benchmarks.ScopeHashingBenchmark.scopeHash",
					"dev.modelgate.idempotency.benchmarks.FingerprintBenchmark.canonicalJson",
					"dev.modelgate.idempotency.benchmarks.ReplicaAcknowledgementBenchmark.newKey",
					"dev.modelgate.idempotency.web.servlet.CapturingResponseBenchmark.captured",
					"dev.modelgate.idempotency.web.servlet.IdempotencyFilterBenchmark.unannotatedFiltered",
					"dev.modelgate.idempotency.web.servlet.IdempotencyFilterBenchmark.replayFiltered",
					"dev.modelgate.idempotency.web.servlet.IdempotencyFilterBenchmark.newKeyMemory",
					"dev.modelgate.idempotency.web.reactive.ReactiveEngineBenchmark.newKeyEngine",
					"dev.modelgate.idempotency.benchmarks.SpringAiRecordingBenchmark.toolCallRecordedNewRun",
					"dev.modelgate.idempotency.benchmarks.SpringAiRecordingBenchmark.roundRecordedNewRun");
		assertThat(results).allSatisfy((result) -> assertThat(result.getPrimaryResult().getScore()).isPositive());
	}

}
