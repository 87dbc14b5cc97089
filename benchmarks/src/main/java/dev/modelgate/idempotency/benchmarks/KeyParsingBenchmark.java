package dev.modelgate.idempotency.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.modelgate.idempotency.core.IdempotencyKey;

/**
 * Parsing the {@code Idempotency-Key} header: a UUID sent as a plain token, and the same UUID sent as
 * an RFC 8941 sf-string (which has to be unquoted).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KeyParsingBenchmark {

	private final List<String> plain = List.of("8a0c4c52-58a4-4c4e-9f53-4b1d0c8a3e2f");

	private final List<String> quoted = List.of("\"8a0c4c52-58a4-4c4e-9f53-4b1d0c8a3e2f\"");

	@Benchmark
	public IdempotencyKey plainToken() {
		return IdempotencyKey.parse(this.plain, 255);
	}

	@Benchmark
	public IdempotencyKey quotedString() {
		return IdempotencyKey.parse(this.quoted, 255);
	}

}
