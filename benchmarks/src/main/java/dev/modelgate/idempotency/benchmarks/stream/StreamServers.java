package dev.modelgate.idempotency.benchmarks.stream;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;

/**
 * One {@link StreamBenchmarkApplication} per store, each on its own free port in this JVM: memory,
 * Redis at 127.0.0.1:6379 and PostgreSQL at 127.0.0.1:5432 (user {@code postgres}, database
 * {@code test}), so that the stores are measured side by side in one run.
 */
final class StreamServers implements AutoCloseable {

	private static final String DATA_SOURCE = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration";

	private static final String DATA_REDIS = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";

	private final Map<Store, ConfigurableApplicationContext> servers = new EnumMap<>(Store.class);

	/** The stores a server can run on. */
	enum Store {

		/** The bounded in-process store. */
		MEMORY,

		/** Redis at 127.0.0.1:6379. */
		REDIS,

		/** PostgreSQL at 127.0.0.1:5432, database {@code test}. */
		POSTGRESQL

	}

	static StreamServers start(Store... stores) {
		StreamServers started = new StreamServers();
		for (Store store : stores) {
			started.servers.put(store, new SpringApplicationBuilder(StreamBenchmarkApplication.class)
				.properties(properties(store))
				.run());
		}
		return started;
	}

	private static String[] properties(Store store) {
		String[] common = { "server.port=0", "spring.main.banner-mode=off", "logging.level.root=warn",
				"modelgate.idempotency.ttl=10m", "modelgate.idempotency.client-identity-header=Authorization" };
		String[] own = switch (store) {
			case MEMORY -> new String[] { "modelgate.idempotency.store=memory",
					"spring.autoconfigure.exclude=" + DATA_SOURCE + "," + DATA_REDIS };
			case REDIS -> new String[] { "modelgate.idempotency.store=redis",
					"modelgate.idempotency.redis.key-prefix=modelgate:bench:", "spring.data.redis.host=127.0.0.1",
					"spring.data.redis.port=6379", "spring.autoconfigure.exclude=" + DATA_SOURCE };
			case POSTGRESQL -> new String[] { "modelgate.idempotency.store=jdbc",
					"modelgate.idempotency.jdbc.table-name=modelgate_idempotency_bench",
					"modelgate.idempotency.jdbc.initialize-schema=always",
					"spring.datasource.url=jdbc:postgresql://127.0.0.1:5432/test", "spring.datasource.username=postgres",
					"spring.datasource.password=" + System.getenv().getOrDefault("PGPASSWORD", "postgres"),
					"spring.autoconfigure.exclude=" + DATA_REDIS };
		};
		String[] all = new String[common.length + own.length];
		System.arraycopy(common, 0, all, 0, common.length);
		System.arraycopy(own, 0, all, common.length, own.length);
		return all;
	}

	int port(Store store) {
		return ((WebServerApplicationContext) this.servers.get(store)).getWebServer().getPort();
	}

	/** {@return how many store calls the server on {@code store} made so far, every operation} */
	long storeCalls(Store store) {
		return registry(store).find("modelgate.idempotency.store").timers().stream().mapToLong(Timer::count).sum();
	}

	/** {@return how many {@code appendEvents} calls the server on {@code store} made so far} */
	long appends(Store store) {
		return registry(store).find("modelgate.idempotency.store")
			.tag("operation", "appendEvents")
			.timers()
			.stream()
			.mapToLong(Timer::count)
			.sum();
	}

	/**
	 * {@return the count and total nanoseconds so far of the time the recording added before each
	 * stream's first event, as the library's own timer has it}
	 */
	long[] addedBeforeFirstEvent(Store store) {
		long count = 0;
		long nanos = 0;
		for (Timer timer : registry(store).find(MicrometerIdempotencyListener.STREAM_FIRST_EVENT).timers()) {
			count += timer.count();
			nanos += (long) timer.totalTime(TimeUnit.NANOSECONDS);
		}
		return new long[] { count, nanos };
	}

	private MeterRegistry registry(Store store) {
		return this.servers.get(store).getBean(MeterRegistry.class);
	}

	@Override
	public void close() {
		this.servers.values().forEach(ConfigurableApplicationContext::close);
	}

}
