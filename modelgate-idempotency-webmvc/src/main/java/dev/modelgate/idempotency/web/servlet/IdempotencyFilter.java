package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;

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
import dev.modelgate.idempotency.core.internal.DecisionReporter;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.ReplayHeaders;
import dev.modelgate.idempotency.web.ResponsePolicy;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.RequestDecision;
import dev.modelgate.idempotency.web.internal.StatusResource;
import dev.modelgate.idempotency.web.internal.LastEventId;
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

	private final KeyedRequestSettings settings;

	private final HttpDecision decision;

	private final KeyedRequestReader reader;

	private final ResponseReplayer replayer;

	private final ProblemResponder problems;

	private final StatusResponder status;

	/**
	 * Where followers of live streams and duplicates waiting for a stream to begin wait without a
	 * request thread, and streams that outlive {@link StreamSettings#maxDuration()} are ended.
	 */
	private final ScheduledExecutorService timers;

	private StreamSettings streamSettings = StreamSettings.DEFAULTS;

	private StreamFollower follower;

	private int order = DEFAULT_ORDER;

	/**
	 * A filter with no listeners and the default order.
	 * @param handlerResolver finds the {@code @Idempotent} handler of a request
	 * @param coordinator begins attempts on the store and keeps their leases
	 * @param identityResolver names the client of a request
	 * @param responsePolicy decides which responses are recorded and which release the key
	 * @param problemRenderer writes refusals
	 * @param replayHeaders which recorded headers are replayed
	 * @param settings the global settings
	 * @param timers where followers of live streams poll, duplicates wait for a stream to begin and
	 * streams that outlive their limit are ended; the application owns it (the filter never shuts it down)
	 */
	public IdempotencyFilter(IdempotentHandlerResolver handlerResolver, IdempotencyCoordinator coordinator,
			ClientIdentityResolver identityResolver, ResponsePolicy responsePolicy,
			IdempotencyProblemRenderer problemRenderer, ReplayHeaders replayHeaders, KeyedRequestSettings settings,
			ScheduledExecutorService timers) {
		this.handlerResolver = handlerResolver;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.responsePolicy = responsePolicy;
		this.replayHeaders = replayHeaders;
		this.settings = settings;
		this.timers = timers;
		this.decision = new HttpDecision(settings);
		this.reader = new KeyedRequestReader(settings.maxRequestBytes());
		this.replayer = new ResponseReplayer(replayHeaders, settings.replayedHeaderName());
		this.problems = new ProblemResponder(problemRenderer);
		this.status = new StatusResponder(this.decision, coordinator, identityResolver, settings.headerName(),
				this.replayer, this.problems, () -> this.follower);
		this.follower = new StreamFollower(coordinator.getStore(), replayHeaders, settings.replayedHeaderName(),
				this.streamSettings, this.timers);
	}

	/**
	 * Limits of recorded Server-Sent Events streams, and how often a duplicate attached to one polls.
	 * @param streamSettings the settings; {@link StreamSettings#DEFAULTS} unless set
	 */
	public void setStreamSettings(StreamSettings streamSettings) {
		this.streamSettings = streamSettings;
		this.decision.setStreamSettings(streamSettings);
		this.follower = new StreamFollower(this.coordinator.getStore(), this.replayHeaders,
				this.settings.replayedHeaderName(), streamSettings, this.timers);
	}

	/**
	 * Turns the status resource on: a duplicate answered 409 carries {@code Location} to the status of
	 * its key, and a {@code GET} there is answered from the store ({@link StatusResponder}).
	 * @param statusPath where it lives within the application, such as {@code /idempotency-status}, or
	 * {@code null} (the default) for none
	 */
	public void setStatusPath(@Nullable String statusPath) {
		this.decision.setStatusPath(statusPath);
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
	 * Requests of an application with no idempotent handler or route are let through before anything
	 * else happens (not even the "already filtered" request attribute is set). So are requests without
	 * a key, unless an endpoint requires one or something follows the decisions (each such request is
	 * a {@code BYPASSED} one).
	 */
	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		// A forward or include runs inside a request this filter has already seen through; so does an
		// asynchronous dispatch, but the one that ends a wait for a stream to begin.
		if (request.getDispatcherType() == DispatcherType.ASYNC) {
			return !HeadWait.isOver(request);
		}
		if (request.getDispatcherType() != DispatcherType.REQUEST) {
			return true;
		}
		if (this.status.statusLookup(request) != null) {
			return false;
		}
		if (!this.handlerResolver.hasIdempotentHandlers()) {
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
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		// Only the asynchronous dispatch that ends a HeadWait carries it (shouldNotFilter lets no other through).
		HeadWait.Over over = HeadWait.over(request);
		if (over != null) {
			try (ScopeMdc.Binding mdc = ScopeMdc.bind(MDC_SCOPE_KEY, over.decision().scope())) {
				if (over.stopping()) {
					this.problems.reject((HttpAction.Reject) over.decision().notAttached(), request, response);
				}
				else {
					handleKeyed(over.decision(), over.read(), request, response, chain);
				}
			}
			return;
		}
		StatusResource status = this.status.statusLookup(request);
		if (status != null) {
			this.status.lookUpStatus(status, request, response);
			return;
		}
		IdempotentEndpoint endpoint = resolveEndpoint(request);
		if (endpoint == null) {
			chain.doFilter(request, response);
			return;
		}
		RequestDecision decision = this.decision.start(request.getMethod(), endpoint);
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
	}

	/** What is decided before the body is read: a refusal, or the handler run as if there were no key. */
	private void carryOutUnkeyed(HttpAction action, HttpServletRequest request, HttpServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		if (action instanceof HttpAction.Reject reject) {
			this.problems.reject(reject, request, response);
		}
		else {
			chain.doFilter(request, response);
		}
	}

	private void handleKeyed(RequestDecision decision, KeyedRequest read, HttpServletRequest request,
			HttpServletResponse response, FilterChain chain) throws IOException, ServletException {
		IdempotentEndpoint endpoint = decision.endpoint();
		Attempt attempt = null;
		HttpAction action;
		decision.fingerprinted(read.fingerprint());
		try {
			attempt = this.coordinator.begin(decision.scope(), read.fingerprint(), endpoint.leaseTtl(),
					decision.waitTimeout());
			action = decision.began(attempt.result(), attempt.waited());
		}
		catch (IdempotencyStoreException ex) {
			action = decision.storeFailed(ex);
		}
		carryOut(decision, read, attempt, action, request, response, chain);
	}

	/**
	 * Carries out the store's answer to a keyed request: follows the stream it found (or waits for one
	 * to begin), replays, refuses or runs the handler.
	 */
	private void carryOut(RequestDecision decision, KeyedRequest read, @Nullable Attempt attempt,
			HttpAction action, HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws IOException, ServletException {
		if (action == HttpAction.ATTACH) {
			action = attach(decision, request, response);
		}
		else if (action == HttpAction.REPLAY_STREAM) {
			action = replayStream(decision, request, response);
		}
		if (action == null) {
			return;
		}
		if (action instanceof HttpAction.AskAgain && !request.isAsyncSupported()) {
			// Waiting without holding a thread takes an asynchronous request.
			action = decision.notAttached();
		}
		if (action instanceof HttpAction.AskAgain again) {
			HeadWait.start(decision, read, request, again.pause(), this.timers);
		}
		else if (action instanceof HttpAction.Reject reject) {
			this.problems.reject(reject, request, response);
		}
		else if (action instanceof HttpAction.Replay replay) {
			this.replayer.replay(replay.response(), response);
			decision.responded(IdempotencyListener.ResponseKind.REPLAY);
		}
		else if (action == HttpAction.PROCEED) {
			chain.doFilter(read.request(), response);
		}
		else if (action == HttpAction.RUN) {
			run(decision, Objects.requireNonNull(attempt).lease(), read, response, chain);
		}
	}

	private void run(RequestDecision decision, @Nullable Lease lease, KeyedRequest read, HttpServletResponse response,
			FilterChain chain) throws IOException, ServletException {
		try {
			Lease held = Objects.requireNonNull(lease, "an acquired attempt holds a lease");
			new HandlerExecution(held, decision.settlement(held), this.responsePolicy, this.replayHeaders,
					this.settings.maxResponseBytes(), this.streamSettings, this.timers,
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
	 * Follows the stream the running request is recording, for a duplicate counted among its followers.
	 * @return {@code null} once following (it leaves the followers when its response is done), else what
	 * the decision answers for a stream that is not there (yet) or cannot be read; nothing is written
	 */
	private @Nullable HttpAction attach(RequestDecision decision, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		LastEventId from = LastEventId.parse(request.getHeader(HttpDecision.LAST_EVENT_ID));
		try {
			if (this.follower.follow(decision.scope(), from, request, response, () -> decision.attached(from.sequence()),
					() -> {
						decision.unfollow();
						decision.responded(IdempotencyListener.ResponseKind.REPLAY);
					})) {
				return null;
			}
		}
		catch (IdempotencyStoreException ex) {
			return decision.attachFailed(ex);
		}
		return decision.notFollowed(String.join(",", Collections.list(request.getHeaders("Accept"))));
	}

	/** @return {@code null} once replayed; else the refusal, with nothing written */
	private @Nullable HttpAction replayStream(RequestDecision decision, HttpServletRequest request,
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

}
