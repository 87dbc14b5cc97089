package dev.modelgate.idempotency.benchmarks;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.redis.RedisIdempotencyStore;
import dev.modelgate.idempotency.redis.ReplicaAcknowledgement;

/**
 * What replica acknowledgements cost a new key: {@code begin} and {@code complete} (1 KiB outcome)
 * on a Redis primary with one replica on loopback, without and with waiting for the replica, from
 * one thread and from 16.
 */
@State(Scope.Benchmark)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ReplicaAcknowledgementBenchmark {

	/** 0: the primary's answer counts; 1: the replica must have each write too. */
	@Param({ "0", "1" })
	public int acknowledgements;

	/**
	 * How long a write waits for the replica (the store's {@code replica-acknowledgement-timeout}); the
	 * build's smoke run gives a loaded machine longer.
	 */
	@Param({ "500" })
	public int acknowledgementTimeoutMillis;

	private final StoredOutcome outcome = new StoredOutcome(StoredOutcome.Kind.RESPONSE, new byte[1024]);

	private PrimaryAndReplica redis;

	private LettuceConnectionFactory connectionFactory;

	private RedisIdempotencyStore store;

	@Setup(Level.Trial)
	public void start() {
		this.redis = PrimaryAndReplica.start();
		this.connectionFactory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.redis.primaryPort()),
				LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
		this.connectionFactory.afterPropertiesSet();
		this.connectionFactory.start();
		ReplicaAcknowledgement acknowledgement = (this.acknowledgements > 0)
				? new ReplicaAcknowledgement(this.acknowledgements,
						Duration.ofMillis(this.acknowledgementTimeoutMillis)) : null;
		this.store = new RedisIdempotencyStore(this.connectionFactory, "modelgate:benchmark:", Duration.ofSeconds(2),
				acknowledgement);
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.store.close();
		this.connectionFactory.destroy();
		this.redis.close();
	}

	@Benchmark
	@BenchmarkMode(Mode.AverageTime)
	@OutputTimeUnit(TimeUnit.MICROSECONDS)
	@Threads(1)
	public boolean newKey() {
		return beginAndComplete();
	}

	@Benchmark
	@BenchmarkMode(Mode.Throughput)
	@OutputTimeUnit(TimeUnit.SECONDS)
	@Threads(16)
	public boolean newKeys16Threads() {
		return beginAndComplete();
	}

	private boolean beginAndComplete() {
		String scope = UUID.randomUUID().toString();
		String token = UUID.randomUUID().toString();
		this.store.begin(scope, "fp", token, Duration.ofSeconds(30));
		return this.store.complete(scope, token, this.outcome, Duration.ofSeconds(60));
	}

}
