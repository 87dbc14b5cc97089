package dev.modelgate.idempotency.benchmarks.stream;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

import dev.modelgate.idempotency.benchmarks.stream.StreamServers.Store;

/**
 * Time to first event and events per second of a Server-Sent Events endpoint (50 events of about
 * 100 bytes, an LLM stream of small chunks), unannotated and recorded on each store, interleaved
 * (a b c d, then d c b a, ...) so that drift on a shared machine favours no mode; prints one
 * Markdown row per mode and concurrency with the medians of the rounds and the store calls per
 * stream and per event. Run: {@code java -cp benchmarks/target/benchmarks.jar
 * dev.modelgate.idempotency.benchmarks.stream.StreamLoad [streams per run] [rounds] [events]
 * [milliseconds between events]}.
 */
public final class StreamLoad {

	private static final int[] CONCURRENCY = { 1, 8 };

	private final StreamServers servers;

	private final StreamClient client = new StreamClient();

	private final int events;

	private final long pauseMillis;

	StreamLoad(StreamServers servers, int events, long pauseMillis) {
		this.servers = servers;
		this.events = events;
		this.pauseMillis = pauseMillis;
	}

	/** What is measured: the unannotated twin (on the memory server), or a recorded stream on a store. */
	enum Mode {

		/** {@code /stream/plain}: the same handler, not annotated. */
		PLAIN(Store.MEMORY, "/stream/plain", false),

		/** {@code /stream} with a new key, recorded in memory. */
		MEMORY(Store.MEMORY, "/stream", true),

		/** {@code /stream} with a new key, recorded in Redis. */
		REDIS(Store.REDIS, "/stream", true),

		/** {@code /stream} with a new key, recorded in PostgreSQL. */
		POSTGRESQL(Store.POSTGRESQL, "/stream", true);

		final Store store;

		final String path;

		final boolean keyed;

		Mode(Store store, String path, boolean keyed) {
			this.store = store;
			this.path = path;
			this.keyed = keyed;
		}

	}

	/**
	 * One run's figures.
	 *
	 * @param firstEventP50Micros median time to first event
	 * @param firstEventP99Micros 99th percentile time to first event
	 * @param eventsPerSecondPerStream events of a stream over its duration, median
	 * @param eventsPerSecond events delivered per second by all clients together
	 * @param storeCallsPerStream every store call (begin, openStream, appends, completeStream,
	 * renewals) over the streams
	 * @param appendsPerEvent {@code appendEvents} calls over the events
	 * @param addedMicros the mean time the recording added before the first event, by the server's
	 * own timer ({@code modelgate.idempotency.stream.first.event}); 0 when nothing was recorded
	 */
	record Result(double firstEventP50Micros, double firstEventP99Micros, double eventsPerSecondPerStream,
			double eventsPerSecond, double storeCallsPerStream, double appendsPerEvent, double addedMicros) {
	}

	Result measure(Mode mode, int threads, int streams) throws Exception {
		long calls = this.servers.storeCalls(mode.store);
		long appends = this.servers.appends(mode.store);
		long[] added = this.servers.addedBeforeFirstEvent(mode.store);
		AtomicInteger left = new AtomicInteger(streams);
		List<StreamClient.Timing> timings = Collections.synchronizedList(new ArrayList<>());
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		long started = System.nanoTime();
		try {
			List<Future<?>> runs = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				runs.add(pool.submit(() -> {
					while (left.getAndDecrement() > 0) {
						timings.add(this.client.stream(this.servers.port(mode.store), mode.path, this.events,
								this.pauseMillis, mode.keyed));
					}
					return null;
				}));
			}
			for (Future<?> run : runs) {
				run.get();
			}
		}
		finally {
			pool.shutdownNow();
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		long[] addedNow = this.servers.addedBeforeFirstEvent(mode.store);
		long recorded = addedNow[0] - added[0];
		long[] firstEvents = timings.stream().mapToLong(StreamClient.Timing::firstEventNanos).sorted().toArray();
		double[] rates = timings.stream()
			.mapToDouble((timing) -> this.events / (timing.totalNanos() / 1e9))
			.sorted()
			.toArray();
		return new Result(percentile(firstEvents, 0.50) / 1e3, percentile(firstEvents, 0.99) / 1e3,
				rates[rates.length / 2], streams * this.events / seconds,
				(this.servers.storeCalls(mode.store) - calls) / (double) streams,
				(this.servers.appends(mode.store) - appends) / (double) (streams * this.events),
				(recorded > 0) ? (addedNow[1] - added[1]) / 1e3 / recorded : 0);
	}

	private static double percentile(long[] sorted, double rank) {
		return sorted[Math.min(sorted.length - 1, (int) Math.ceil(rank * sorted.length) - 1)];
	}

	public static void main(String[] args) throws Exception {
		int streams = (args.length > 0) ? Integer.parseInt(args[0]) : 200;
		int rounds = (args.length > 1) ? Integer.parseInt(args[1]) : 3;
		int events = (args.length > 2) ? Integer.parseInt(args[2]) : 50;
		long pauseMillis = (args.length > 3) ? Long.parseLong(args[3]) : 0;
		Mode[] modes = Mode.values();
		try (StreamServers servers = StreamServers.start(Store.values())) {
			StreamLoad load = new StreamLoad(servers, events, pauseMillis);
			System.out.println("| concurrency | mode | first event p50 µs | p99 µs | events/s per stream | events/s "
					+ "| first event ratio | events/s ratio | store calls per stream | appends per event "
					+ "| added before first event µs (server) |");
			System.out.println("|---|---|---|---|---|---|---|---|---|---|---|");
			for (int threads : CONCURRENCY) {
				for (Mode mode : modes) {
					load.measure(mode, threads, streams / 2);
				}
				List<List<Result>> results = new ArrayList<>();
				for (Mode mode : modes) {
					results.add(new ArrayList<>());
				}
				for (int round = 0; round < rounds; round++) {
					for (int i = 0; i < modes.length; i++) {
						int mode = (round % 2 == 0) ? i : modes.length - 1 - i;
						results.get(mode).add(load.measure(modes[mode], threads, streams));
					}
				}
				Result plain = median(results.get(0));
				for (Mode mode : modes) {
					Result cell = median(results.get(mode.ordinal()));
					System.out.println(String.format(Locale.ROOT,
							"| %d | %s | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f | %.2f | %.2f | %.0f |", threads,
							mode.name().toLowerCase(Locale.ROOT), cell.firstEventP50Micros(),
							cell.firstEventP99Micros(), cell.eventsPerSecondPerStream(), cell.eventsPerSecond(),
							cell.firstEventP50Micros() / plain.firstEventP50Micros(),
							cell.eventsPerSecond() / plain.eventsPerSecond(), cell.storeCallsPerStream(),
							cell.appendsPerEvent(), cell.addedMicros()));
				}
			}
		}
	}

	/** Each figure's median over the rounds. */
	private static Result median(List<Result> rounds) {
		return new Result(median(rounds, Result::firstEventP50Micros), median(rounds, Result::firstEventP99Micros),
				median(rounds, Result::eventsPerSecondPerStream), median(rounds, Result::eventsPerSecond),
				median(rounds, Result::storeCallsPerStream), median(rounds, Result::appendsPerEvent),
				median(rounds, Result::addedMicros));
	}

	private static double median(List<Result> rounds, ToDoubleFunction<Result> figure) {
		double[] values = rounds.stream().mapToDouble(figure).sorted().toArray();
		return values[values.length / 2];
	}

}
