package dev.modelgate.idempotency.web;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.Part;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.CanonicalBody;
import dev.modelgate.idempotency.core.DecisionReporter;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.IdempotencyContext;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.RequestFingerprint;
import dev.modelgate.idempotency.core.Settlement;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * Applies the Idempotency-Key state machine to requests bound for {@code @Idempotent} handlers;
 * every other request passes untouched (no buffering, no store call).
 *
 * <p>For a keyed request: validate the key, buffer and fingerprint the body, {@code begin} in the
 * store, then either refuse (mismatch, in progress), replay the recorded response, or run the
 * handler under a renewed lease with its response held back, record it, and only then send it.
 */
public class IdempotencyFilter extends OncePerRequestFilter implements Ordered {

	/**
	 * After Spring Security's filter chain (order -100), so that the authenticated principal is known
	 * when the client identity is resolved, and after the request-wrapping filters, so that the body
	 * this filter buffers is the one the handler will read.
	 */
	public static final int DEFAULT_ORDER = -90;

	/** Response header that marks a replayed response. */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * MDC key that holds the scope hash while the filter handles a keyed request (the handler
	 * included), so that log lines can be tied to the record the Actuator endpoint shows.
	 */
	public static final String MDC_SCOPE_KEY = "modelgate.idempotency.scope";

	/** The logger that narrates every decision at DEBUG. */
	public static final String TRANSITIONS_LOGGER = DecisionReporter.TRANSITIONS_LOGGER;

	private static final Log logger = LogFactory.getLog(IdempotencyFilter.class);

	private final IdempotentHandlerResolver handlerResolver;

	private final IdempotencyCoordinator coordinator;

	private final ClientIdentityResolver identityResolver;

	private final ResponsePolicy responsePolicy;

	private final IdempotencyProblemRenderer problemRenderer;

	private final ReplayHeaders replayHeaders;

	private final Settings settings;

	private int order = DEFAULT_ORDER;

	private DecisionReporter reporter = DecisionReporter.silent();

	private volatile String alreadyFilteredAttributeName;

	public IdempotencyFilter(IdempotentHandlerResolver handlerResolver, IdempotencyCoordinator coordinator,
			ClientIdentityResolver identityResolver, ResponsePolicy responsePolicy,
			IdempotencyProblemRenderer problemRenderer, ReplayHeaders replayHeaders, Settings settings) {
		this.handlerResolver = handlerResolver;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.problemRenderer = problemRenderer;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	public void setOrder(int order) {
		this.order = order;
	}

	/** Listeners told of every decision (metrics, audit), called in order. */
	public void setListeners(List<? extends IdempotencyListener> listeners) {
		this.reporter = DecisionReporter.of(listeners);
	}

	/**
	 * Requests that no {@code @Idempotent} handler can be bound for are let through before anything
	 * else happens (not even the "already filtered" request attribute is set): the filter costs them a
	 * few string comparisons and no allocation. So are requests without a key, unless an endpoint
	 * requires one or something follows the decisions (each such request is a {@code BYPASSED} one).
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		// A forward or include runs inside a request this filter has already seen through.
		if (request.getDispatcherType() != DispatcherType.REQUEST || !this.handlerResolver.mayResolve(request)) {
			return true;
		}
		return !this.reporter.isFollowed() && !this.handlerResolver.hasKeyRequiredHandlers()
				&& request.getHeader(this.settings.headerName()) == null;
	}

	@Override
	protected void initFilterBean() {
		this.alreadyFilteredAttributeName = super.getAlreadyFilteredAttributeName();
	}

	/** Computed once: the inherited method builds a new string on every request. */
	@Override
	protected String getAlreadyFilteredAttributeName() {
		String name = this.alreadyFilteredAttributeName;
		return (name != null) ? name : super.getAlreadyFilteredAttributeName();
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		long started = System.nanoTime();
		IdempotentEndpoint endpoint = resolveEndpoint(request);
		if (endpoint == null) {
			chain.doFilter(request, response);
			return;
		}
		String method = request.getMethod();
		IdempotencyKey key;
		try {
			key = IdempotencyKey.parse(Collections.list(request.getHeaders(this.settings.headerName())),
					this.settings.keyMaxLength());
		}
		catch (InvalidIdempotencyKeyException ex) {
			decide(IdempotencyOutcome.INVALID_KEY, method, endpoint, null);
			reject(IdempotencyProblem.keyInvalid(ex.getMessage()), request, response);
			return;
		}
		if (key == null) {
			if (endpoint.required()) {
				decide(IdempotencyOutcome.MISSING_KEY, method, endpoint, null);
				reject(IdempotencyProblem.keyMissing(this.settings.headerName()), request, response);
			}
			else {
				decide(IdempotencyOutcome.BYPASSED, method, endpoint, null);
				chain.doFilter(request, response);
			}
			return;
		}
		ReadRequest read = readBody(request, endpoint);
		if (read.problem() != null) {
			decide(read.refusal(), method, endpoint, null);
			reject(read.problem(), request, response);
			return;
		}
		String scope = IdempotencyScope.of(this.identityResolver.resolve(request), method, endpoint.scopeName(), key)
			.hash();
		try (ScopeMdc.Binding mdc = ScopeMdc.bind(MDC_SCOPE_KEY, scope)) {
			handleKeyed(new Keyed(method, endpoint, scope, started), read, request, response, chain);
		}
	}

	private void handleKeyed(Keyed keyed, ReadRequest read, HttpServletRequest request,
			HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
		IdempotentEndpoint endpoint = keyed.endpoint();
		String scope = keyed.scope();
		Attempt attempt;
		try {
			attempt = this.coordinator.begin(scope, read.fingerprint(), endpoint.leaseTtl(), endpoint.waitTimeout());
		}
		catch (IdempotencyStoreException ex) {
			decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
			if (endpoint.onStoreFailure() == Idempotent.StoreFailure.PROCEED) {
				logger.warn("Idempotency store unavailable for scope " + scope
						+ "; running the handler without protection (onStoreFailure = PROCEED): " + ex.describe());
				decide(IdempotencyOutcome.BYPASSED, keyed);
				chain.doFilter(read.request(), response);
			}
			else {
				logger.warn("Idempotency store unavailable for scope " + scope + "; answering 503: " + ex.describe());
				reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), request, response);
			}
			return;
		}
		if (attempt.waited()) {
			decide(IdempotencyOutcome.WAITED, keyed);
		}
		switch (attempt.outcome()) {
			case MISMATCH -> {
				decide(IdempotencyOutcome.MISMATCH, keyed);
				reject(IdempotencyProblem.keyReused(this.settings.mismatchStatus()), request, response);
			}
			case IN_PROGRESS -> {
				decide(IdempotencyOutcome.IN_PROGRESS, keyed);
				reject(IdempotencyProblem.inProgress(this.settings.retryAfter()), request, response);
			}
			case COMPLETED -> replay(keyed, attempt.result(), request, response);
			case ACQUIRED -> {
				decide(IdempotencyOutcome.ACQUIRED, keyed);
				try {
					new Execution(attempt.lease(), keyed).run(read.request(), response, chain);
				}
				finally {
					responded(IdempotencyListener.ResponseKind.FIRST, keyed);
				}
			}
		}
	}

	private void decide(IdempotencyOutcome outcome, Keyed keyed) {
		decide(outcome, keyed.method(), keyed.endpoint(), keyed.scope());
	}

	private void decide(IdempotencyOutcome outcome, String method, IdempotentEndpoint endpoint, @Nullable String scope) {
		this.reporter.decide(outcome, method, endpoint.route(), scope);
	}

	private void responded(IdempotencyListener.ResponseKind kind, Keyed keyed) {
		this.reporter.responded(kind, keyed.method(), keyed.endpoint().route(),
				Duration.ofNanos(System.nanoTime() - keyed.started()));
	}

	private IdempotentEndpoint resolveEndpoint(HttpServletRequest request) {
		try {
			return this.handlerResolver.resolve(request);
		}
		catch (Exception ex) {
			// The DispatcherServlet will meet the same failure and report it in its own way.
			return null;
		}
	}

	private ReadRequest readBody(HttpServletRequest request, IdempotentEndpoint endpoint) throws IOException {
		long maxBytes = this.settings.maxRequestBytes();
		MediaType contentType = contentType(request);
		try {
			if (contentType != null && MediaType.MULTIPART_FORM_DATA.includes(contentType)) {
				return readParts(request, endpoint, maxBytes);
			}
			BufferedRequest buffered = BufferedRequest.read(request, maxBytes);
			if (buffered == null) {
				return ReadRequest.tooLarge(maxBytes);
			}
			byte[] body = buffered.body();
			CanonicalBody canonical = isJson(contentType)
					? JsonBodies.canonical(body, 0, body.length, endpoint.ignoreFields())
					: CanonicalBody.bytes(body);
			return ReadRequest.read(buffered, fingerprint(request, endpoint, canonical));
		}
		catch (IOException | ServletException | IllegalStateException ex) {
			if (isSizeLimit(ex)) {
				return ReadRequest.tooLarge(maxBytes);
			}
			return ReadRequest.unreadable(ex);
		}
	}

	/** Multipart bodies are parsed by the container (so the handler can still read the parts). */
	private ReadRequest readParts(HttpServletRequest request, IdempotentEndpoint endpoint, long maxBytes)
			throws IOException, ServletException {
		if (request.getContentLengthLong() > maxBytes) {
			return ReadRequest.tooLarge(maxBytes);
		}
		List<CanonicalBody.Part> parts = new ArrayList<>();
		long total = 0;
		for (Part part : request.getParts()) {
			total += part.getSize();
			if (total > maxBytes) {
				return ReadRequest.tooLarge(maxBytes);
			}
			String fileName = (part.getSubmittedFileName() != null) ? part.getSubmittedFileName() : "";
			parts.add(new CanonicalBody.Part(part.getName(), fileName, part.getInputStream().readAllBytes()));
		}
		return ReadRequest.read(request, fingerprint(request, endpoint, CanonicalBody.parts(parts)));
	}

	/**
	 * The request path, not the route pattern, goes into the fingerprint: path variables are part of
	 * the request, so {@code /orders/7/cancel} and {@code /orders/8/cancel} under one key are a key
	 * reuse, never a replay of the other's response.
	 */
	private static String fingerprint(HttpServletRequest request, IdempotentEndpoint endpoint, CanonicalBody body) {
		return RequestFingerprint.of(request.getMethod(), request.getRequestURI(), request.getQueryString(), body);
	}

	private static boolean isSizeLimit(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause.getClass().getSimpleName().contains("SizeLimitExceeded")
					|| cause.getClass().getSimpleName().contains("SizeException")) {
				return true;
			}
		}
		return false;
	}

	private static MediaType contentType(HttpServletRequest request) {
		String value = request.getContentType();
		if (value == null) {
			return null;
		}
		try {
			return MediaType.parseMediaType(value);
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	private static boolean isJson(MediaType contentType) {
		return contentType != null && (MediaType.APPLICATION_JSON.isCompatibleWith(contentType)
				|| "json".equals(contentType.getSubtypeSuffix()));
	}

	private void replay(Keyed keyed, BeginResult completed, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		StoredOutcome outcome = completed.stored();
		if (outcome == null) {
			decide(IdempotencyOutcome.RESULT_UNAVAILABLE, keyed);
			reject(IdempotencyProblem.resultUnavailable(), request, response);
			return;
		}
		HttpResponseRecord stored;
		try {
			stored = HttpResponseRecord.decode(outcome);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Idempotency scope " + keyed.scope() + " holds a record this filter cannot replay; answering 503: "
					+ ex.getMessage());
			decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
			reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), request, response);
			return;
		}
		decide(IdempotencyOutcome.REPLAYED, keyed);
		response.setStatus(stored.status());
		stored.headers().forEach((name, values) -> {
			if (this.replayHeaders.isReplayed(name)) {
				values.forEach((value) -> response.addHeader(name, value));
			}
		});
		response.setHeader(REPLAYED_HEADER, "true");
		response.setContentLength(stored.bodyLength());
		response.getOutputStream().write(stored.payload(), stored.bodyOffset(), stored.bodyLength());
		responded(IdempotencyListener.ResponseKind.REPLAY, keyed);
	}

	private void reject(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		response.setStatus(problem.status());
		response.setHeader("Cache-Control", "no-store");
		if (problem.retryAfter() != null) {
			response.setHeader("Retry-After", Long.toString(wholeSecondsAtLeastOne(problem.retryAfter())));
		}
		this.problemRenderer.render(problem, request, response);
	}

	private static long wholeSecondsAtLeastOne(Duration duration) {
		long seconds = duration.toSeconds() + ((duration.toNanosPart() > 0) ? 1 : 0);
		return Math.max(1, seconds);
	}

	/** One run of a handler under a held lease, from the chain call to the record. */
	private final class Execution implements CapturingResponse.OverflowListener {

		private final Lease lease;

		private final Settlement settlement;

		private boolean settledEarly;

		Execution(Lease lease, Keyed keyed) {
			this.lease = lease;
			this.settlement = new Settlement(lease, IdempotencyFilter.this.reporter, keyed.method(),
					keyed.endpoint().route(), keyed.endpoint().ttl());
		}

		void run(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
				throws IOException, ServletException {
			CapturingResponse capture = new CapturingResponse(response, IdempotencyFilter.this.settings.maxResponseBytes(),
					this);
			try (IdempotencyContext.Binding binding = this.lease.bindToCurrentThread()) {
				chain.doFilter(new AsyncAwareRequest(request, capture), capture);
			}
			catch (IOException | ServletException | RuntimeException | Error ex) {
				release("the handler threw " + ex.getClass().getName());
				throw ex;
			}
			if (request.isAsyncStarted()) {
				release("the response is streamed or asynchronous and cannot be recorded");
				return;
			}
			finish(capture);
		}

		private void finish(CapturingResponse capture) throws IOException {
			if (capture.isOverflowed()) {
				if (!this.settledEarly) {
					release("the response was not recordable");
				}
				return;
			}
			if (capture.isErrorSent() || !IdempotencyFilter.this.responsePolicy.shouldRecord(capture.getStatus())) {
				release(null);
				capture.commit();
				return;
			}
			complete(capture.toStoredOutcome(IdempotencyFilter.this.replayHeaders));
			capture.commit();
		}

		/**
		 * An oversized body is about to reach the client: record "done, result not kept" first, so
		 * that the key stays spent (a retry gets 410 rather than running the operation again).
		 */
		@Override
		public void beforeOverflow(int status) {
			if (IdempotencyFilter.this.responsePolicy.shouldRecord(status)) {
				this.settledEarly = true;
				logger.warn("Response for idempotency scope " + this.lease.scope() + " is larger than "
						+ IdempotencyFilter.this.settings.maxResponseBytes()
						+ " bytes; it is delivered but not stored, and retries will get 410");
				complete(null);
			}
		}

		private void complete(@Nullable StoredOutcome outcome) {
			this.settlement.record(outcome);
		}

		private void release(@Nullable String warning) {
			this.settlement.release(warning);
		}

	}

	/**
	 * Switches the held response to pass-through the moment the handler goes asynchronous (SSE,
	 * {@code StreamingResponseBody}, deferred results): from then on other threads write to the
	 * client, and holding their output back would race with the container completing the response.
	 */
	private static final class AsyncAwareRequest extends HttpServletRequestWrapper {

		private final CapturingResponse capture;

		AsyncAwareRequest(HttpServletRequest request, CapturingResponse capture) {
			super(request);
			this.capture = capture;
		}

		@Override
		public AsyncContext startAsync() {
			passThrough();
			return super.startAsync();
		}

		@Override
		public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
			passThrough();
			return super.startAsync(request, response);
		}

		private void passThrough() {
			try {
				this.capture.switchToPassThrough();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/**
	 * A keyed request once its scope is known: what every later decision is reported with.
	 *
	 * @param started {@link System#nanoTime()} when the filter took the request
	 */
	private record Keyed(String method, IdempotentEndpoint endpoint, String scope, long started) {
	}

	/**
	 * The request as the handler will see it and its fingerprint, or why it is refused and the problem
	 * that says so.
	 */
	private record ReadRequest(@Nullable HttpServletRequest request, @Nullable String fingerprint,
			@Nullable IdempotencyOutcome refusal, @Nullable IdempotencyProblem problem) {

		static ReadRequest read(HttpServletRequest request, String fingerprint) {
			return new ReadRequest(request, fingerprint, null, null);
		}

		static ReadRequest tooLarge(long maxBytes) {
			return new ReadRequest(null, null, IdempotencyOutcome.TOO_LARGE,
					IdempotencyProblem.requestTooLarge(maxBytes));
		}

		static ReadRequest unreadable(Exception failure) {
			return new ReadRequest(null, null, IdempotencyOutcome.UNREADABLE,
					IdempotencyProblem.requestUnreadable(failure.getClass().getSimpleName()));
		}

	}

	/**
	 * Global settings of the filter.
	 *
	 * @param headerName the key header
	 * @param keyMaxLength the longest key accepted
	 * @param maxRequestBytes the largest body buffered for a keyed request
	 * @param maxResponseBytes the largest body stored for replay
	 * @param retryAfter the Retry-After hint on 409 and 503
	 * @param mismatchStatus the status for a key reused with another request
	 */
	public record Settings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
			Duration retryAfter, int mismatchStatus) {
	}

}
