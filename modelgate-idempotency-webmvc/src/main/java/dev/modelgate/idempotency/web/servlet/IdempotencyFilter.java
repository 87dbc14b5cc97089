package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamReporting;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.ChunkPool;
import dev.modelgate.idempotency.core.DecisionReporter;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.Settlement;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.web.servlet.KeyedRequestReader.KeyedRequest;

/**
 * Applies the Idempotency-Key state machine to requests bound for {@code @Idempotent} handlers;
 * every other request passes untouched (no buffering, no store call).
 *
 * <p>For a keyed request: validate the key, read and fingerprint the body ({@link KeyedRequestReader}),
 * {@code begin} in the store, then either refuse ({@link ProblemResponder}), replay the recorded
 * response ({@link ResponseReplayer}), or run the handler under a renewed lease with its response
 * held back, record it, and only then send it ({@link HandlerExecution}). A Server-Sent Events
 * response is recorded event by event as it streams ({@link StreamRecorder}); its retries, resumes
 * ({@code Last-Event-ID}) and duplicates follow the recorded stream ({@link StreamFollower}).
 */
public class IdempotencyFilter extends OncePerRequestFilter implements Ordered {

	/**
	 * After Spring Security's filter chain (order -100), so that the authenticated principal is known
	 * when the client identity is resolved, and after the request-wrapping filters, so that the body
	 * this filter buffers is the one the handler will read.
	 */
	public static final int DEFAULT_ORDER = -90;

	/** The default response header that marks a replayed response (property {@code replayed-header-name}). */
	public static final String REPLAYED_HEADER = "Idempotent-Replayed";

	/**
	 * MDC key that holds the scope hash while the filter handles a keyed request (the handler
	 * included), so that log lines can be tied to the record the Actuator endpoint shows.
	 */
	public static final String MDC_SCOPE_KEY = "modelgate.idempotency.scope";

	/**
	 * The request header with which a Server-Sent Events client resumes: the last event id it saw.
	 * Not part of the fingerprint.
	 */
	public static final String LAST_EVENT_ID = "Last-Event-ID";

	/** The logger that narrates every decision at DEBUG. */
	public static final String TRANSITIONS_LOGGER = DecisionReporter.TRANSITIONS_LOGGER;

	private static final Log logger = LogFactory.getLog(IdempotencyFilter.class);

	private final IdempotentHandlerResolver handlerResolver;

	private final IdempotencyCoordinator coordinator;

	private final ClientIdentityResolver identityResolver;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	private final Settings settings;

	private final KeyedRequestReader reader;

	private final ResponseReplayer replayer;

	private final ProblemResponder problems;

	/** Full chunks of keyed request bodies, reused from one request to the next. */
	private final ChunkPool bodyChunks = ChunkPool.forHeap();

	/**
	 * Ends streams that outlive {@link StreamSettings#maxDuration()} and trims {@link #bodyChunks} once a
	 * second; one daemon thread, idle otherwise.
	 */
	private final ScheduledExecutorService streamTimers = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "modelgate-idempotency-streams");
		thread.setDaemon(true);
		return thread;
	});

	private StreamSettings streamSettings = StreamSettings.DEFAULTS;

	private StreamFollower follower;

	private int order = DEFAULT_ORDER;

	private DecisionReporter reporter = DecisionReporter.silent();

	private volatile String alreadyFilteredAttributeName;

	/**
	 * A filter with no listeners and the default order.
	 * @param handlerResolver finds the {@code @Idempotent} handler of a request
	 * @param coordinator begins attempts on the store and keeps their leases
	 * @param identityResolver names the client of a request
	 * @param responsePolicy decides which responses are recorded and which release the key
	 * @param problemRenderer writes refusals
	 * @param replayHeaders which recorded headers are replayed
	 * @param settings the global settings
	 */
	public IdempotencyFilter(IdempotentHandlerResolver handlerResolver, IdempotencyCoordinator coordinator,
			ClientIdentityResolver identityResolver, ResponsePolicy responsePolicy,
			IdempotencyProblemRenderer problemRenderer, ReplayHeaders replayHeaders, Settings settings) {
		this.handlerResolver = handlerResolver;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
		this.reader = new KeyedRequestReader(settings.maxRequestBytes(), this.bodyChunks);
		if (this.bodyChunks.capacity() > 0) {
			this.streamTimers.scheduleAtFixedRate(this.bodyChunks::trim, 1, 1, TimeUnit.SECONDS);
		}
		this.replayer = new ResponseReplayer(replayHeaders, settings.replayedHeaderName());
		this.problems = new ProblemResponder(problemRenderer);
		this.follower = new StreamFollower(coordinator.getStore(), replayHeaders, settings.replayedHeaderName(),
				this.streamSettings);
	}

	/**
	 * Limits of recorded Server-Sent Events streams, and how often a duplicate attached to one polls.
	 * @param streamSettings the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streamSettings) {
		this.streamSettings = streamSettings;
		this.follower = new StreamFollower(this.coordinator.getStore(), this.replayHeaders,
				this.settings.replayedHeaderName(), streamSettings);
	}

	/** The pool of the filter's body chunks, for tests. */
	ChunkPool bodyChunks() {
		return this.bodyChunks;
	}

	@Override
	public void destroy() {
		this.streamTimers.shutdownNow();
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	/** @param order the filter's order; {@link #DEFAULT_ORDER} unless set */
	public void setOrder(int order) {
		this.order = order;
	}

	/**
	 * Listeners told of every decision (metrics, audit), called in order.
	 * @param listeners the listeners
	 */
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
		String identity = this.identityResolver.resolve(request);
		if (identity == null) {
			switch (this.settings.unidentifiedClients()) {
				case REJECT -> {
					decide(IdempotencyOutcome.UNIDENTIFIED, method, endpoint, null);
					reject(IdempotencyProblem.clientUnidentified(this.settings.clientIdentityHeader()), request,
							response);
					return;
				}
				case SKIP -> {
					decide(IdempotencyOutcome.UNIDENTIFIED_SKIPPED, method, endpoint, null);
					decide(IdempotencyOutcome.BYPASSED, method, endpoint, null);
					chain.doFilter(request, response);
					return;
				}
				case SHARE -> identity = DefaultClientIdentityResolver.ANONYMOUS;
			}
		}
		// After the identity, so that a request refused or skipped for the lack of one is never buffered.
		KeyedRequest read = this.reader.read(request, endpoint);
		if (read.isRefused()) {
			decide(read.refusal(), method, endpoint, null);
			reject(read.problem(), request, response);
			return;
		}
		String scope = IdempotencyScope.of(identity, method, endpoint.scopeName(), key).hash();
		try (ScopeMdc.Binding mdc = ScopeMdc.bind(MDC_SCOPE_KEY, scope)) {
			Keyed keyed = new Keyed(method, endpoint, scope, started);
			if (DefaultClientIdentityResolver.ANONYMOUS.equals(identity)) {
				decide(IdempotencyOutcome.UNIDENTIFIED_SHARED, keyed);
			}
			handleKeyed(keyed, read, request, response, chain);
		}
		finally {
			releaseWhenComplete(read, request);
		}
	}

	/**
	 * Gives the body's pooled chunks back once nothing reads it any more: now, or, when the handler
	 * went asynchronous, when the request completes (the container does not complete it while this
	 * thread is still in the filter, so the listener is never late).
	 */
	private static void releaseWhenComplete(KeyedRequest read, HttpServletRequest request) {
		if (!request.isAsyncStarted()) {
			read.release();
			return;
		}
		request.getAsyncContext().addListener(new AsyncListener() {

			@Override
			public void onComplete(AsyncEvent event) {
				read.release();
			}

			@Override
			public void onTimeout(AsyncEvent event) {
			}

			@Override
			public void onError(AsyncEvent event) {
			}

			@Override
			public void onStartAsync(AsyncEvent event) {
				// A new async cycle: listen to it as well, since this one's completion is not announced.
				event.getAsyncContext().addListener(this);
			}

		});
	}

	private void handleKeyed(Keyed keyed, KeyedRequest read, HttpServletRequest request,
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
				if (endpoint.attachToStream() && attach(keyed, request, response)) {
					return;
				}
				decide(IdempotencyOutcome.IN_PROGRESS, keyed);
				reject(IdempotencyProblem.inProgress(this.settings.retryAfter()), request, response);
			}
			case COMPLETED -> {
				StoredOutcome stored = attempt.result().stored();
				if (stored != null && stored.kind() == StoredOutcome.Kind.STREAM) {
					replayStream(keyed, request, response);
				}
				else {
					replay(keyed, stored, request, response);
				}
			}
			case ACQUIRED -> {
				decide(IdempotencyOutcome.ACQUIRED, keyed);
				Settlement settlement = new Settlement(attempt.lease(), this.reporter, keyed.method(),
						endpoint.route(), endpoint.ttl());
				try {
					new HandlerExecution(attempt.lease(), settlement, this.responsePolicy, this.replayHeaders,
							this.settings.maxResponseBytes(), this.streamSettings, this.streamTimers,
							new StreamReporting(this.reporter, keyed.method(), endpoint.route()))
						.run(read.request(), response, chain);
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

	private void replay(Keyed keyed, @Nullable StoredOutcome outcome, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
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
		this.replayer.replay(stored, response);
		responded(IdempotencyListener.ResponseKind.REPLAY, keyed);
	}

	/**
	 * Attaches a duplicate to the stream its key is recording, if it is one.
	 * @return {@code false}, with nothing written, when the running request has no stream (yet)
	 */
	private boolean attach(Keyed keyed, HttpServletRequest request, HttpServletResponse response) throws IOException {
		boolean attached;
		try {
			attached = this.follower.follow(keyed.scope(), lastEventId(request), response);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Could not read the stream of idempotency scope " + keyed.scope() + ": " + ex.describe());
			return false;
		}
		if (attached) {
			resumed(keyed, request);
			decide(IdempotencyOutcome.ATTACHED, keyed);
			responded(IdempotencyListener.ResponseKind.REPLAY, keyed);
		}
		return attached;
	}

	private void replayStream(Keyed keyed, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		boolean replayed;
		try {
			replayed = this.follower.follow(keyed.scope(), lastEventId(request), response);
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("Could not read the stream of idempotency scope " + keyed.scope() + "; answering 503: "
					+ ex.describe());
			decide(IdempotencyOutcome.STORE_UNAVAILABLE, keyed);
			reject(IdempotencyProblem.storeUnavailable(this.settings.retryAfter()), request, response);
			return;
		}
		if (!replayed) {
			// Expired between begin and the read.
			decide(IdempotencyOutcome.RESULT_UNAVAILABLE, keyed);
			reject(IdempotencyProblem.resultUnavailable(), request, response);
			return;
		}
		resumed(keyed, request);
		decide(IdempotencyOutcome.STREAM_REPLAYED, keyed);
		responded(IdempotencyListener.ResponseKind.REPLAY, keyed);
	}

	private void resumed(Keyed keyed, HttpServletRequest request) {
		if (lastEventId(request) > 0) {
			decide(IdempotencyOutcome.STREAM_RESUMED, keyed);
		}
	}

	/** The sequence after which a follower resumes: {@code Last-Event-ID} when it is one of ours, else 0. */
	private static long lastEventId(HttpServletRequest request) {
		String value = request.getHeader(LAST_EVENT_ID);
		if (value == null) {
			return 0;
		}
		try {
			return Math.max(0, Long.parseLong(value.trim()));
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	private void reject(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		this.problems.reject(problem, request, response);
	}

	/**
	 * A keyed request once its scope is known: what every later decision is reported with.
	 *
	 * @param started {@link System#nanoTime()} when the filter took the request
	 */
	private record Keyed(String method, IdempotentEndpoint endpoint, String scope, long started) {
	}

	/** What a keyed request gets when the {@link ClientIdentityResolver} finds no client identity. */
	public enum UnidentifiedClients {

		/** Answered 400 {@code idempotency_client_unidentified}: no client is answered with another's result. */
		REJECT,

		/**
		 * Put into the one {@link DefaultClientIdentityResolver#ANONYMOUS anonymous} key space that every
		 * unidentified client shares: one such client can be answered with another's result.
		 */
		SHARE,

		/** Run without idempotency protection, as if it had no key: a retry runs the handler again. */
		SKIP

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
	 * @param replayedHeaderName the header, valued {@code true}, that marks a replayed response
	 * @param clientIdentityHeader the header that identifies clients, named in the problem answered to
	 * an unidentified one
	 * @param unidentifiedClients what a keyed request gets when its client has no identity
	 */
	public record Settings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
			Duration retryAfter, int mismatchStatus, String replayedHeaderName, String clientIdentityHeader,
			UnidentifiedClients unidentifiedClients) {

		/**
		 * Settings that mark replays with {@value IdempotencyFilter#REPLAYED_HEADER}, Stripe's name,
		 * identify clients by {@code Authorization} and refuse keyed requests of unidentified clients.
		 * @param headerName the key header
		 * @param keyMaxLength the longest key accepted
		 * @param maxRequestBytes the largest body buffered for a keyed request
		 * @param maxResponseBytes the largest body stored for replay
		 * @param retryAfter the Retry-After hint on 409 and 503
		 * @param mismatchStatus the status for a key reused with another request
		 */
		public Settings(String headerName, int keyMaxLength, long maxRequestBytes, long maxResponseBytes,
				Duration retryAfter, int mismatchStatus) {
			this(headerName, keyMaxLength, maxRequestBytes, maxResponseBytes, retryAfter, mismatchStatus,
					REPLAYED_HEADER, "Authorization", UnidentifiedClients.REJECT);
		}

	}

}
