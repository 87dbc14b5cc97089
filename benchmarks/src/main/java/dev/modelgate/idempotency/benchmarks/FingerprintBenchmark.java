package dev.modelgate.idempotency.benchmarks;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.modelgate.idempotency.core.internal.CanonicalBody;
import dev.modelgate.idempotency.core.internal.RequestFingerprint;

/**
 * Fingerprinting a chat request body: canonical JSON (parse, sort keys, hash by meaning), as every
 * keyed JSON request is fingerprinted, next to hashing the same bytes as they are, which is the floor
 * any fingerprint has to pay.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FingerprintBenchmark {

	private static final String ROUTE = "/v1/chat/completions";

	@Param({ "1024", "65536", "1048576" })
	public int bodySize;

	private byte[] body;

	@Setup
	public void createBody() {
		this.body = ChatBodies.ofSize(this.bodySize);
	}

	@Benchmark
	public String canonicalJson() {
		return RequestFingerprint.of("POST", ROUTE, null, CanonicalBody.json(this.body, 0, this.body.length, List.of()));
	}

	@Benchmark
	public String rawBytes() {
		return RequestFingerprint.of("POST", ROUTE, null, CanonicalBody.bytes(this.body));
	}

}
