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
import dev.modelgate.idempotency.core.IdempotencyScope;

/**
 * Hashing a scope (client identity, method, route, key) into the store key, with the client identity
 * in the form the default resolver gives for a hashed {@code Authorization} header.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScopeHashingBenchmark {

	private final String clientIdentity = "header:" + "3f".repeat(32);

	private final IdempotencyKey key = IdempotencyKey.parse(List.of("8a0c4c52-58a4-4c4e-9f53-4b1d0c8a3e2f"), 255);

	@Benchmark
	public String scopeHash() {
		return IdempotencyScope.of(this.clientIdentity, "POST", "/v1/chat/completions", this.key).hash();
	}

}
