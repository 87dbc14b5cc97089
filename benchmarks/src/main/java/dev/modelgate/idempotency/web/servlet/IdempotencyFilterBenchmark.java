package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import javax.crypto.spec.SecretKeySpec;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

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
import org.openjdk.jmh.annotations.Warmup;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.util.StreamUtils;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.EndpointDefaults;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.StatusResponsePolicy;
import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.benchmarks.ChatBodies;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.RecordEncryption;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;
import dev.modelgate.idempotency.micrometer.ObservedIdempotencyStore;

/**
 * The filter's own cost on each path, with the container, the DispatcherServlet and the store taken
 * out: mock requests (see {@link BlockMocks}), a chain that stands for the handler, and stores that
 * answer at once from memory. Handler resolution runs against a real Spring MVC handler mapping with an annotated and an
 * unannotated twin of the chat endpoint, as in the load benchmark.
 *
 * <p>The pass-through pairs ({@code unannotatedBare} and {@code unannotatedFiltered}) reuse one
 * request and response, so that with {@code -prof gc} their {@code gc.alloc.rate.norm} is exactly
 * what the filter allocates on a request it does not handle. The keyed benchmarks build a fresh
 * request each time (a body can only be read once) and run through the production coordinator and
 * lease heartbeat; {@code newKeyFilteredHandOff} shows what the coordinator's thread hand-off adds
 * for a store that does not bound its own calls.
 *
 * <p>The {@code Configured} benchmarks run the filter as the auto-configuration sets it up in an
 * application with Actuator (the sample gateway): the bounded in-memory store (full after its first
 * 10,000 keys, as in a long load run), every store call observed through an
 * {@link ObservationRegistry} whose {@link DefaultMeterObservationHandler} records timers and long
 * task timers in a Prometheus registry, the {@link MicrometerIdempotencyListener} counting decisions
 * there, and each request inside an {@code http.server.requests} observation, as Spring Boot's
 * server observation filter puts it (so the store's observations are its children, and a lease
 * keeps it as the parent of its calls). {@code newKeyConfiguredBare} is the same handler inside the
 * same request observation without the filter: the difference is the filter's cost as users pay it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class IdempotencyFilterBenchmark {

	static final String ANNOTATED = "/v1/chat/completions";

	static final String UNANNOTATED = "/bench/chat/completions";

	/** Size of the keyed requests' chat body: 1 KiB, or {@code -p requestBytes=1048576} for the largest one allowed. */
	@Param("1024")
	public int requestBytes;

	private byte[] requestBody;

	private final byte[] responseBody = ChatBodies.ofSize(512);

	private final AtomicLong keys = new AtomicLong();

	private AnnotationConfigWebApplicationContext context;

	private IdempotencyCoordinator acquiring;

	private IdempotencyCoordinator replaying;

	private IdempotencyCoordinator handingOff;

	private IdempotencyFilter newKeyFilter;

	private IdempotencyFilter replayFilter;

	private IdempotencyFilter handOffFilter;

	private IdempotencyFilter listenedFilter;

	private PrometheusMeterRegistry meterRegistry;

	private ObservationRegistry observationRegistry;

	private IdempotencyCoordinator configuredCoordinator;

	private IdempotencyFilter configuredFilter;

	private IdempotencyCoordinator memoryCoordinator;

	private IdempotencyFilter memoryFilter;

	private IdempotencyCoordinator encryptedCoordinator;

	private IdempotencyFilter encryptedFilter;

	private String memoryReplayKey;

	private String replayKey;

	/** Stands for a trivial handler: reads the body and writes a small JSON answer. */
	private final FilterChain handler = (request, response) -> {
		StreamUtils.copyToByteArray(request.getInputStream());
		response.setContentType("application/json");
		response.getOutputStream().write(this.responseBody);
	};

	@Setup(Level.Trial)
	public void start() throws ServletException, IOException {
		this.requestBody = ChatBodies.ofSize(this.requestBytes);
		this.context = new AnnotationConfigWebApplicationContext();
		this.context.setServletContext(BlockMocks.SERVLET_CONTEXT);
		this.context.register(WebConfiguration.class);
		this.context.refresh();
		RequestMappingHandlerMapping handlerMapping = this.context.getBean(RequestMappingHandlerMapping.class);
		IdempotentHandlerResolver resolver = new IdempotentHandlerResolver(() -> handlerMapping,
				new EndpointDefaults(Duration.ofHours(24), Duration.ofSeconds(30),
						Duration.ofSeconds(10)));
		resolver.afterSingletonsInstantiated();
		StoredOutcome stored = HttpResponseRecord.encode(200, Map.of("Content-Type", List.of("application/json")),
				this.responseBody, this.responseBody.length);
		Duration operationTimeout = Duration.ofSeconds(2);
		this.acquiring = IdempotencyCoordinator.create(new AnsweringStore(BeginResult.acquired(), operationTimeout),
				operationTimeout);
		this.replaying = IdempotencyCoordinator.create(
				new AnsweringStore(BeginResult.completed(stored), operationTimeout), operationTimeout);
		this.handingOff = IdempotencyCoordinator.create(new AnsweringStore(BeginResult.acquired(), null),
				operationTimeout);
		this.newKeyFilter = filter(resolver, this.acquiring);
		this.replayFilter = filter(resolver, this.replaying);
		this.handOffFilter = filter(resolver, this.handingOff);
		this.listenedFilter = filter(resolver, this.acquiring);
		this.listenedFilter.setListeners(List.of(IdempotencyListener.NONE));
		this.meterRegistry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		this.observationRegistry = ObservationRegistry.create();
		this.observationRegistry.observationConfig()
			.observationHandler(new DefaultMeterObservationHandler(this.meterRegistry));
		this.configuredCoordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), operationTimeout,
				(store) -> new ObservedIdempotencyStore(store, this.observationRegistry, null));
		this.configuredFilter = filter(resolver, this.configuredCoordinator);
		this.memoryCoordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), operationTimeout);
		this.memoryFilter = filter(resolver, this.memoryCoordinator);
		// The memory store again, with records encrypted at rest as modelgate.idempotency.encryption.* sets it up.
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		RecordEncryption encryption = new RecordEncryption(
				RecordEncryptionKeys.of("k1", Map.of("k1", new SecretKeySpec(key, "AES"))));
		this.encryptedCoordinator = IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), operationTimeout,
				encryption::decorate);
		this.encryptedFilter = filter(resolver, this.encryptedCoordinator);
		this.memoryReplayKey = "memory-replay-" + System.nanoTime();
		for (IdempotencyFilter recording : List.of(this.memoryFilter, this.encryptedFilter)) {
			MockHttpServletResponse recorded = BlockMocks.response();
			recording.doFilter(keyedRequest(this.memoryReplayKey), recorded, this.handler);
			if (recorded.getStatus() != 200) {
				throw new IllegalStateException("the memory replay key's first request answered " + recorded.getStatus());
			}
			MockHttpServletResponse replayed = BlockMocks.response();
			recording.doFilter(keyedRequest(this.memoryReplayKey), replayed, this.handler);
			if (replayed.getStatus() != 200 || replayed.getHeader(IdempotencyFilter.REPLAYED_HEADER) == null
					|| !Arrays.equals(replayed.getContentAsByteArray(), this.responseBody)) {
				throw new IllegalStateException("the memory replay key was not replayed: " + replayed.getStatus());
			}
		}
		this.configuredFilter.setListeners(List.of(new MicrometerIdempotencyListener(this.meterRegistry)));
		this.replayKey = "replay-" + System.nanoTime();
		MockHttpServletResponse first = BlockMocks.response();
		this.configuredFilter.doFilter(keyedRequest(this.replayKey), first, this.handler);
		if (first.getStatus() != 200 || first.getHeader(IdempotencyFilter.REPLAYED_HEADER) != null) {
			throw new IllegalStateException("the replayed key's first request answered " + first.getStatus());
		}
	}

	/** The filters' timers, as the auto-configuration's: a daemon pool the benchmark never shuts down. */
	private static final ScheduledExecutorService TIMERS = Executors.newScheduledThreadPool(2, (task) -> {
		Thread thread = new Thread(task, "modelgate-idempotency-timers");
		thread.setDaemon(true);
		return thread;
	});

	private static IdempotencyFilter filter(IdempotentHandlerResolver resolver, IdempotencyCoordinator coordinator)
			throws ServletException {
		IdempotencyFilter filter = new IdempotencyFilter(resolver, coordinator, new DefaultClientIdentityResolver("Authorization"),
				new StatusResponsePolicy(Set.of(408, 409, 425, 429), false),
				new ProblemDetailRenderer(new JacksonJsonHttpMessageConverter(JsonMapper.builder().build())), new ReplayHeaders(List.of()),
				new KeyedRequestSettings("Idempotency-Key", 255, 1024 * 1024, 1024 * 1024,
						Duration.ofSeconds(1), 422), TIMERS);
		// As the application context does for a filter bean.
		filter.afterPropertiesSet();
		return filter;
	}

	@TearDown(Level.Trial)
	public void stop() {
		this.acquiring.close();
		this.replaying.close();
		this.handingOff.close();
		this.configuredCoordinator.close();
		this.memoryCoordinator.close();
		this.encryptedCoordinator.close();
		this.context.close();
	}

	@Benchmark
	public void unannotatedBare(PassThrough state) throws IOException, ServletException {
		state.chain.doFilter(state.unannotated, state.response);
	}

	@Benchmark
	public void unannotatedFiltered(PassThrough state) throws IOException, ServletException {
		this.newKeyFilter.doFilter(state.unannotated, state.response, state.chain);
	}

	@Benchmark
	public void annotatedWithoutKeyFiltered(PassThrough state) throws IOException, ServletException {
		this.newKeyFilter.doFilter(state.annotatedWithoutKey, state.response, state.chain);
	}

	/** With a listener (metrics), a request to an unannotated handler: what telling it apart costs. */
	@Benchmark
	public void unannotatedListened(PassThrough state) throws IOException, ServletException {
		this.listenedFilter.doFilter(state.unannotated, state.response, state.chain);
	}

	/** With a listener (metrics), a request without a key is resolved, to be counted as bypassed. */
	@Benchmark
	public void annotatedWithoutKeyListened(PassThrough state) throws IOException, ServletException {
		this.listenedFilter.doFilter(state.annotatedWithoutKey, state.response, state.chain);
	}

	@Benchmark
	public MockHttpServletResponse newKeyBare() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.handler.doFilter(keyedRequest(), response);
		return response;
	}

	/**
	 * A new key through the filter over the memory store with its default limits, no observation and no
	 * listener: the servlet side of {@code ReactiveEngineBenchmark.newKeyEngine}.
	 */
	@Benchmark
	public MockHttpServletResponse newKeyMemory() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.memoryFilter.doFilter(keyedRequest(), response, this.handler);
		return response;
	}

	/** {@link #newKeyMemory} with the response encrypted before it is stored. */
	@Benchmark
	public MockHttpServletResponse newKeyMemoryEncrypted() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.encryptedFilter.doFilter(keyedRequest(), response, this.handler);
		return response;
	}

	/** A replay from the memory store: the side of {@link #replayMemoryEncrypted} without encryption. */
	@Benchmark
	public MockHttpServletResponse replayMemory() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.memoryFilter.doFilter(keyedRequest(this.memoryReplayKey), response, this.handler);
		return response;
	}

	/** A replay from the memory store of a response stored encrypted: it is decrypted first. */
	@Benchmark
	public MockHttpServletResponse replayMemoryEncrypted() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.encryptedFilter.doFilter(keyedRequest(this.memoryReplayKey), response, this.handler);
		return response;
	}

	@Benchmark
	public MockHttpServletResponse newKeyFiltered() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.newKeyFilter.doFilter(keyedRequest(), response, this.handler);
		return response;
	}

	@Benchmark
	public MockHttpServletResponse newKeyFilteredHandOff() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.handOffFilter.doFilter(keyedRequest(), response, this.handler);
		return response;
	}

	@Benchmark
	public MockHttpServletResponse replayFiltered() throws IOException, ServletException {
		MockHttpServletResponse response = BlockMocks.response();
		this.replayFilter.doFilter(keyedRequest(), response, this.handler);
		return response;
	}

	@Benchmark
	public MockHttpServletResponse newKeyConfiguredBare() throws Exception {
		MockHttpServletResponse response = BlockMocks.response();
		MockHttpServletRequest request = keyedRequest();
		serverObservation().observeChecked(() -> this.handler.doFilter(request, response));
		return response;
	}

	@Benchmark
	public MockHttpServletResponse newKeyConfigured() throws Exception {
		MockHttpServletResponse response = BlockMocks.response();
		MockHttpServletRequest request = keyedRequest();
		serverObservation().observeChecked(() -> this.configuredFilter.doFilter(request, response, this.handler));
		return response;
	}

	@Benchmark
	public MockHttpServletResponse replayConfigured() throws Exception {
		MockHttpServletResponse response = BlockMocks.response();
		MockHttpServletRequest request = keyedRequest(this.replayKey);
		serverObservation().observeChecked(() -> this.configuredFilter.doFilter(request, response, this.handler));
		return response;
	}

	/** What Spring Boot's server observation filter opens around every request. */
	private Observation serverObservation() {
		return Observation.createNotStarted("http.server.requests", this.observationRegistry);
	}

	private MockHttpServletRequest keyedRequest() {
		return keyedRequest("key-" + this.keys.incrementAndGet());
	}

	private MockHttpServletRequest keyedRequest(String key) {
		MockHttpServletRequest request = post(ANNOTATED);
		request.addHeader("Idempotency-Key", key);
		request.setContent(this.requestBody);
		return request;
	}

	static MockHttpServletRequest post(String path) {
		MockHttpServletRequest request = BlockMocks.request("POST", path);
		request.setContentType("application/json");
		request.addHeader("Authorization", "Bearer benchmark");
		return request;
	}

	/**
	 * One request and response per thread, reused: the filter leaves a request it passes through as it
	 * found it, so reuse keeps the allocation count to what the filter itself does.
	 */
	@State(Scope.Thread)
	public static class PassThrough {

		final MockHttpServletRequest unannotated = post(UNANNOTATED);

		final MockHttpServletRequest annotatedWithoutKey = post(ANNOTATED);

		final MockHttpServletResponse response = BlockMocks.response();

		ServletRequest lastRequest;

		/** Stands for the rest of the chain; remembering the request keeps the call from being optimised away. */
		final FilterChain chain = (request, response) -> this.lastRequest = request;

	}

	/**
	 * A store that gives every {@code begin} the same answer and accepts every other call; with a
	 * {@code callTimeLimit} it is called directly, as Redis with Lettuce is, without one each call is
	 * handed to another thread, as a store that cannot bound its own calls is.
	 */
	private record AnsweringStore(BeginResult answer, Duration callTimeLimit) implements IdempotencyStore {

		@Override
		public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
			return this.answer;
		}

		@Override
		public boolean renew(String scope, String token, Duration leaseTtl) {
			return true;
		}

		@Override
		public boolean complete(String scope, String token, StoredOutcome outcome, Duration ttl) {
			return true;
		}

		@Override
		public boolean release(String scope, String token) {
			return true;
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class WebConfiguration {

		@Bean
		ChatEndpoints chatEndpoints() {
			return new ChatEndpoints();
		}

	}

	/** Twins: the same handler, with and without {@code @Idempotent}. */
	@RestController
	static class ChatEndpoints {

		@Idempotent
		@PostMapping(ANNOTATED)
		byte[] annotated(@RequestBody byte[] body) {
			return body;
		}

		@PostMapping(UNANNOTATED)
		byte[] unannotated(@RequestBody byte[] body) {
			return body;
		}

	}

}
