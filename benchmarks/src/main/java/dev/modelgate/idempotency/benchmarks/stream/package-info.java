/**
 * The cost of recording Server-Sent Events, on a real server: {@link
 * dev.modelgate.idempotency.benchmarks.stream.StreamLoad} starts {@link
 * dev.modelgate.idempotency.benchmarks.stream.StreamBenchmarkApplication} once per store and reads
 * its streams with the JDK's HTTP client.
 */
@NullMarked
package dev.modelgate.idempotency.benchmarks.stream;

import org.jspecify.annotations.NullMarked;
