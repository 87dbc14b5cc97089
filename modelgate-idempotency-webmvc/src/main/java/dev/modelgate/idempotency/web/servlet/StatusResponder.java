package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.util.Collections;
import java.util.function.Supplier;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;
import dev.modelgate.idempotency.web.internal.LastEventId;
import dev.modelgate.idempotency.web.internal.StatusLookup;
import dev.modelgate.idempotency.web.internal.StatusResource;

/** Answers lookups of the status resource for {@link IdempotencyFilter}: nothing runs, the store answers. */
final class StatusResponder {

	private final HttpDecision decision;

	private final IdempotencyCoordinator coordinator;

	private final ClientIdentityResolver identityResolver;

	private final String headerName;

	private final ResponseReplayer replayer;

	private final ProblemResponder problems;

	private final Supplier<StreamFollower> follower;

	StatusResponder(HttpDecision decision, IdempotencyCoordinator coordinator, ClientIdentityResolver identityResolver,
			String headerName, ResponseReplayer replayer, ProblemResponder problems, Supplier<StreamFollower> follower) {
		this.decision = decision;
		this.coordinator = coordinator;
		this.identityResolver = identityResolver;
		this.headerName = headerName;
		this.replayer = replayer;
		this.problems = problems;
		this.follower = follower;
	}

	/** {@return the status resource when the request is a lookup}, else {@code null} */
	@Nullable StatusResource statusLookup(HttpServletRequest request) {
		StatusResource status = this.decision.statusResource();
		return (status != null && status.isLookup(request.getMethod(), pathWithinApplication(request))) ? status
				: null;
	}

	private static String pathWithinApplication(HttpServletRequest request) {
		return request.getRequestURI().substring(request.getContextPath().length());
	}

	/** Answers a status lookup: nothing runs, the store's answer is carried out. */
	void lookUpStatus(StatusResource status, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		StatusLookup lookup = status.start(pathWithinApplication(request),
				Collections.list(request.getHeaders(this.headerName)),
				String.join(",", Collections.list(request.getHeaders("Accept"))));
		HttpAction action = lookup.refusal();
		if (action == null) {
			try {
				action = lookup.identify(this.identityResolver.resolve(request));
			}
			catch (AmbiguousClientIdentityException ex) {
				action = lookup.identityAmbiguous(ex);
			}
		}
		if (action == null) {
			action = lookup.lookUp(this.coordinator);
		}
		if (action == HttpAction.ATTACH || action == HttpAction.REPLAY_STREAM) {
			action = followStatus(lookup, action, request, response);
			if (action == null) {
				return;
			}
		}
		if (action instanceof HttpAction.Pending pending) {
			response.setStatus(HttpServletResponse.SC_ACCEPTED);
			response.setHeader("Cache-Control", "no-store");
			response.setHeader("Retry-After", HttpDecision.retryAfterSeconds(pending.retryAfter()));
		}
		else if (action instanceof HttpAction.Replay replay) {
			this.replayer.replay(replay.response(), response);
		}
		else {
			this.problems.reject((HttpAction.Reject) action, request, response);
		}
	}

	/** @return {@code null} once following the stream the lookup found; else the answer instead */
	private @Nullable HttpAction followStatus(StatusLookup lookup, HttpAction action, HttpServletRequest request,
			HttpServletResponse response) throws IOException {
		LastEventId from = LastEventId.parse(request.getHeader(HttpDecision.LAST_EVENT_ID));
		try {
			return this.follower.get().follow(lookup.scope(), from, request, response, () -> lookup.followed(action), () -> {
			}) ? null : lookup.notFollowed(action);
		}
		catch (IdempotencyStoreException ex) {
			return lookup.storeFailed(ex);
		}
	}

}
