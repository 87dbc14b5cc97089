package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServletResponse;

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

import org.springframework.mock.web.MockHttpServletResponse;

import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.benchmarks.ChatBodies;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * Holding a handler's response back for the record: write the body into a {@link CapturingResponse},
 * turn it into the {@link StoredOutcome} the store receives, then send it on. {@code direct} writes
 * the same response straight to the container's response (a mock that takes writes in blocks, see
 * {@link BlockMocks}), so the difference is what capture costs.
 * (This class sits in the filter's package because the capturing response is package-private.)
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CapturingResponseBenchmark {

	private static final CapturingResponse.OverflowListener NO_OVERFLOW = (status) -> {
	};

	@Param({ "1024", "65536" })
	public int bodySize;

	private final ReplayHeaders replayHeaders = new ReplayHeaders(List.of());

	private byte[] body;

	@Setup
	public void createBody() {
		this.body = ChatBodies.ofSize(this.bodySize);
	}

	@Benchmark
	public MockHttpServletResponse direct() throws IOException {
		MockHttpServletResponse response = BlockMocks.response();
		writeAsHandler(response);
		return response;
	}

	@Benchmark
	public StoredOutcome captured() throws IOException {
		MockHttpServletResponse response = BlockMocks.response();
		CapturingResponse capture = new CapturingResponse(response, 1024 * 1024, NO_OVERFLOW);
		writeAsHandler(capture);
		StoredOutcome stored = capture.toStoredOutcome(this.replayHeaders);
		capture.commit();
		return stored;
	}

	private void writeAsHandler(HttpServletResponse response) throws IOException {
		response.setStatus(200);
		response.setContentType("application/json");
		response.getOutputStream().write(this.body);
		// Spring's message converters flush; capture has to hold that back.
		response.flushBuffer();
	}

}
