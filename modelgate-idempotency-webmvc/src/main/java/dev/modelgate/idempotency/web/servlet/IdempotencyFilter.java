package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyCoordinator.Attempt;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.Lease;
import dev.modelgate.idempotency.core.internal.ChunkPool;
import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.StreamFollowers;
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
	public static final String REPLAYED_HEADER = KeyedRequestSettings.REPLAYED_HEADER;

	/**
	 * MDC key that holds the scope hash while the filter handles a keyed request (the handler
	 * included), so that log lines can be tied to the record the Actuator endpoint shows.
	 */
	public static final String MDC_SCOPE_KEY = "modelgate.idempotency.scope";

	/** The logger that narrates every decision at DEBUG. */
	public static final String TRANSITIONS_LOGGER = DecisionReporter.TRANSITIONS_LOGGER;

	private final IdempotentHandlerResolver handlerResolver;

	private final IdempotencyCoordinator coordinator;

	private final ClientIdentityResolver identityResolver;

	private final ResponsePolicy responsePolicy;

	private final ReplayHeaders replayHeaders;

	/**
	 * Request attribute that brings a keyed request back into this filter, on an asynchronous dispatch,
	 * once its wait for a stream to begin is over ({@link HeadWait}).
	 */
	private static final String HEAD_WAIT_OVER = IdempotencyFilter.class.getName() + ".HEAD_WAIT_OVER";

	/** What {@link #attach} answers for a duplicate that is to be refused. */
	private static final Duration NOT_ATTACHED = Duration.ofNanos(-1);

	private final KeyedRequestSettings settings;

	private final HttpDecision decision;

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

	/**
	 * Where followers of live streams wait for the next events without a request thread: the store
	 * read and the write to the client every poll interval.
	 */
	private final ScheduledExecutorService followerTimers = Executors.newScheduledThreadPool(
			Math.max(2, Runtime.getRuntime().availableProcessors()), (task) -> {
				Thread thread = new Thread(task, "modelgate-idempotency-followers");
				thread.setDaemon(true);
				return thread;
			});

	private final StreamFollowers streamFollowers = new StreamFollowers();

	private StreamSettings streamSettings = StreamSettings.DEFAULTS;

	private StreamFollower follower;

	private int order = DEFAULT_ORDER;

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
			IdempotencyProblemRenderer problemRenderer, ReplayHeaders replayHeaders, KeyedRequestSettings settings) {
		this.handlerResolver = handlerResolver;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
		this.decision = new HttpDecision(settings);
		this.reader = new KeyedRequestReader(settings.maxRequestBytes(), this.bodyChunks);
		if (this.bodyChunks.capacity() > 0) {
			this.streamTimers.scheduleAtFixedRate(this.bodyChunks::trim, 1, 1, TimeUnit.SECONDS);
		}
		this.replayer = new ResponseReplayer(replayHeaders, settings.replayedHeaderName());
		this.problems = new ProblemResponder(problemRenderer);
		this.follower = new StreamFollower(coordinator.getStore(), replayHeaders, settings.replayedHeaderName(),
				this.streamSettings, this.followerTimers);
	}

	/**
	 * Limits of recorded Server-Sent Events streams, and how often a duplicate attached to one polls.
	 * @param streamSettings the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streamSettings) {
		this.streamSettings = streamSettings;
		this.follower = new StreamFollower(this.coordinator.getStore(), this.replayHeaders,
				this.settings.replayedHeaderName(), streamSettings, this.followerTimers);
	}

	/** The pool of the filter's body chunks, for tests. */
	ChunkPool bodyChunks() {
		return this.bodyChunks;
	}

	@Override
	public void destroy() {
		this.streamTimers.shutdownNow();
		this.followerTimers.shutdownNow();
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
		this.decision.setListeners(listeners);
	}

	/**
	 * Requests that no {@code @Idempotent} handler can be bound for are let through before anything
	 * else happens (not even the "already filtered" request attribute is set): the filter costs them a
	 * few string comparisons and no allocation. So are requests without a key, unless an endpoint
	 * requires one or something follows the decisions (each such request is a {@code BYPASSED} one).
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		// A forward or include runs inside a request this filter has already seen through; so does an
		// asynchronous dispatch, but the one that ends a wait for a stream to begin.
		if (request.getDispatcherType() == DispatcherType.ASYNC) {
			return request.getAttribute(HEAD_WAIT_OVER) == null;
		}
		if (request.getDispatcherType() != DispatcherType.REQUEST || !this.handlerResolver.mayResolve(request)) {
			return true;
		}
		return !this.handlerResolver.hasKeyRequiredHandlers()
				&& this.decision.canSkip(request.getHeader(this.settings.headerName()));
	}

	/** Decided by {@link #shouldNotFilter}: only the dispatch that ends a {@link HeadWait} is filtered. */
	@Override
	protected boolean shouldNotFilterAsyncDispatch() {
		return false;
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
		// Only the asynchronous dispatch that ends a HeadWait carries it (shouldNotFilter lets no other through).
		if (request.getDispatcherType() == DispatcherType.ASYNC
				&& request.getAttribute(HEAD_WAIT_OVER) instanceof HeadWait.Over over) {
			request.removeAttribute(HEAD_WAIT_OVER);
			try (ScopeMdc.Binding mdc = ScopeMdc.bind(MDC_SCOPE_KEY, over.decision().scope())) {
				carryOut(over.decision(), over.read(), over.attempt(), over.action(), request, response, chain);
			}
			return;
		}
		IdempotentEndpoint endpoint = resolveEndpoint(request);
		if (endpoint == null) {
			chain.doFilter(request, response);
			return;
		}
		HttpDecision.Request decision = this.decision.start(request.getMethod(), endpoint);
		HttpAction action = decision.key(Collections.list(request.getHeaders(this.settings.headerName())));
		if (action == null) {
			try {
				action = decision.identify(this.identityResolver.resolve(request));
			}
			catch (AmbiguousClientIdentityException ex) {
				action = decision.identityAmbiguous(ex);
			}
		}
		if (action != null) {
			carryOutUnkeyed(action, request, response, chain);
			return;
		}
		KeyedRequest read = this.reader.read(request, endpoint);
		if (read.isRefused()) {
			carryOutUnkeyed(decision.bodyRefused(read.refusal(), read.problem()), request, response, chain);
			return;
		}
		try (ScopeMdc.Binding mdc = ScopeMdc.bind(MDC_SCOPE_KEY, decision.scope())) {
			handleKeyed(decision, read, request, response, chain);
		}
		finally {
			releaseWhenComplete(read, request);
		}
	}

	/** What is decided before the body is read: a refusal, or the handler run as if there were no key. */
	private void carryOutUnkeyed(HttpAction action, HttpServletRequest request, HttpServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		if (action instanceof HttpAction.Reject reject) {
			reject(reject.problem(), request, response);
		}
		else {
			chain.doFilter(request, response);
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

	private void handleKeyed(HttpDecision.Request decision, KeyedRequest read, HttpServletRequest request,
			HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
		IdempotentEndpoint endpoint = decision.endpoint();
		Attempt attempt = null;
		HttpAction action;
		try {
			attempt = this.coordinator.begin(decision.scope(), read.fingerprint(), endpoint.leaseTtl(),
					endpoint.waitTimeout());
			action = decision.began(attempt.result(), attempt.waited());
		}
		catch (IdempotencyStoreException ex) {
			action = decision.storeFailed(ex);
		}
		carryOut(decision, read, attempt, action, request, response, chain);
	}

	/**
	 * Carries out the store's answer to a keyed request: attaches to the stream it found (or waits for
	 * one to begin), replays, refuses or runs the handler.
	 */
	private void carryOut(HttpDecision.Request decision, KeyedRequest read, @Nullable Attempt attempt,
			HttpAction action, HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		IdempotentEndpoint endpoint = decision.endpoint();
		while (action == HttpAction.ATTACH) {
			int maxFollowers = this.streamSettings.maxFollowers();
			if (!this.streamFollowers.tryJoin(decision.scope(), maxFollowers)) {
				action = decision.tooManyFollowers(maxFollowers);
				break;
			}
			Duration pause;
			try {
				pause = attach(decision, request, response);
			}
			catch (IdempotencyStoreException ex) {
				this.streamFollowers.leave(decision.scope());
				action = decision.attachFailed(ex);
				break;
			}
			if (pause == null) {
				return;
			}
			this.streamFollowers.leave(decision.scope());
			if (pause != NOT_ATTACHED && request.isAsyncSupported()) {
				new HeadWait(decision, read, request).await(pause);
				return;
			}
			if (pause == NOT_ATTACHED || !sleep(pause)) {
				action = decision.notAttached();
				break;
			}
			try {
				attempt = this.coordinator.begin(decision.scope(), read.fingerprint(), endpoint.leaseTtl(), Duration.ZERO);
				action = decision.began(attempt.result(), false);
			}
			catch (IdempotencyStoreException ex) {
				action = decision.storeFailed(ex);
			}
		}
		if (action == HttpAction.REPLAY_STREAM) {
			action = replayStream(decision, request, response);
		}
		if (action instanceof HttpAction.Reject reject) {
			reject(reject.problem(), request, response);
		}
		else if (action instanceof HttpAction.Replay replay) {
			this.replayer.replay(replay.response(), response);
			decision.responded(IdempotencyListener.ResponseKind.REPLAY);
		}
		else if (action == HttpAction.PROCEED) {
			chain.doFilter(read.request(), response);
		}
		else if (action == HttpAction.RUN && attempt != null) {
			run(decision, attempt.lease(), read, response, chain);
		}
	}

	private void run(HttpDecision.Request decision, Lease lease, KeyedRequest read, HttpServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		try {
			new HandlerExecution(lease, decision.settlement(lease), this.responsePolicy, this.replayHeaders,
					this.settings.maxResponseBytes(), this.streamSettings, this.streamTimers,
					decision.streamReporting())
				.run(read.request(), response, chain);
		}
		finally {
			decision.responded(IdempotencyListener.ResponseKind.FIRST);
		}
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

	/**
	 * Attaches a duplicate, counted among the stream's followers, to the stream its key is recording,
	 * if it is one.
	 * @return {@code null} once attached (it leaves the followers when its response is done); else how
	 * long to wait before asking the store again, or {@link #NOT_ATTACHED} when the duplicate is to be
	 * refused; nothing is written unless attached
	 * @throws IdempotencyStoreException when the stream cannot be read
	 */
	private @Nullable Duration attach(HttpDecision.Request decision, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		LastEventId from = LastEventId.parse(request.getHeader(HttpDecision.LAST_EVENT_ID));
		String scope = decision.scope();
		Runnable done = () -> {
			this.streamFollowers.leave(scope);
			decision.responded(IdempotencyListener.ResponseKind.REPLAY);
		};
		if (!this.follower.follow(scope, from, request, response, () -> decision.attached(from.sequence()),
				done)) {
			Duration pause = decision.streamNotThereYet(this.streamSettings,
					String.join(",", Collections.list(request.getHeaders("Accept"))));
			return (pause != null) ? pause : NOT_ATTACHED;
		}
		return null;
	}

	/**
	 * A duplicate that asks for {@code text/event-stream} while its key's request has not begun its
	 * stream yet (a model thinking before its first token), waiting for it without a request thread:
	 * the request goes asynchronous, and every pause the {@code followers} scheduler asks the store
	 * again. Once there is a stream to attach to, or anything else to do (the key completed, was
	 * released, the store failed, the wait ran out), the request is dispatched back to this filter,
	 * which carries the answer out on a container thread as it would have without the wait.
	 */
	private final class HeadWait extends ClientWatch {

		/** What the dispatch back to the filter carries out. */
		record Over(HttpDecision.Request decision, KeyedRequest read, @Nullable Attempt attempt, HttpAction action) {
		}

		private final HttpDecision.Request decision;

		private final KeyedRequest read;

		private final HttpServletRequest request;

		private final String accept;

		private volatile @Nullable AsyncContext async;

		HeadWait(HttpDecision.Request decision, KeyedRequest read, HttpServletRequest request) {
			this.decision = decision;
			this.read = read;
			this.request = request;
			this.accept = String.join(",", Collections.list(request.getHeaders("Accept")));
		}

		void await(Duration pause) {
			AsyncContext context = this.request.startAsync();
			// stream.head-wait bounds the wait; the container's timeout must not end it first.
			context.setTimeout(0);
			context.addListener(this);
			this.async = context;
			schedule(pause);
		}

		private void schedule(Duration pause) {
			try {
				IdempotencyFilter.this.followerTimers.schedule(this::askAgain, pause.toNanos(), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException ex) {
				// The application is stopping.
				dispatch(null, this.decision.notAttached());
			}
		}

		private void askAgain() {
			if (clientGone()) {
				return;
			}
			IdempotentEndpoint endpoint = this.decision.endpoint();
			String scope = this.decision.scope();
			Attempt attempt = null;
			HttpAction action;
			try {
				attempt = IdempotencyFilter.this.coordinator.begin(scope, this.read.fingerprint(),
						endpoint.leaseTtl(), Duration.ZERO);
				action = this.decision.began(attempt.result(), false);
				if (action == HttpAction.ATTACH
						&& IdempotencyFilter.this.coordinator.getStore().readStream(scope, 0, 1).isEmpty()) {
					Duration pause = this.decision.streamNotThereYet(IdempotencyFilter.this.streamSettings,
							this.accept);
					if (pause != null) {
						schedule(pause);
						return;
					}
					action = this.decision.notAttached();
				}
			}
			catch (IdempotencyStoreException ex) {
				// Before begin answered: the store is down. After: the stream could not be read, which
				// the dispatch's attach meets (or not) again and reports.
				action = (attempt != null) ? HttpAction.ATTACH : this.decision.storeFailed(ex);
			}
			catch (RuntimeException ex) {
				logger.warn("Waiting for the stream of idempotency scope " + scope + " failed; answering 409", ex);
				action = this.decision.notAttached();
			}
			dispatch(attempt, action);
		}

		private void dispatch(@Nullable Attempt attempt, HttpAction action) {
			AsyncContext context = this.async;
			try {
				this.request.setAttribute(HEAD_WAIT_OVER, new Over(this.decision, this.read, attempt, action));
				if (context == null || clientGone()) {
					throw new IllegalStateException("the client went away");
				}
				context.dispatch();
			}
			catch (IllegalStateException ex) {
				// The client went away: nobody is waiting for the answer, and a key acquired for them
				// is given back.
				if (action == HttpAction.RUN && attempt != null) {
					attempt.lease().release();
				}
			}
		}

	}

	private static boolean sleep(Duration pause) {
		try {
			Thread.sleep(pause.toMillis(), pause.toNanosPart() % 1_000_000);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	/** @return {@code null} once replayed; else the refusal, with nothing written */
	private @Nullable HttpAction replayStream(HttpDecision.Request decision, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		LastEventId from = LastEventId.parse(request.getHeader(HttpDecision.LAST_EVENT_ID));
		HttpAction refusal;
		try {
			boolean found = this.follower.follow(decision.scope(), from, request, response,
					() -> decision.streamFollowed(true, from.sequence()),
					() -> decision.responded(IdempotencyListener.ResponseKind.REPLAY));
			refusal = found ? null : decision.streamFollowed(false, from.sequence());
		}
		catch (IdempotencyStoreException ex) {
			return decision.streamUnreadable(ex);
		}
		return refusal;
	}

	private void reject(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		this.problems.reject(problem, request, response);
	}

}
