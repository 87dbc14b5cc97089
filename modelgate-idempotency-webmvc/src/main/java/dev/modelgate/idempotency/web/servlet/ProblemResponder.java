package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.internal.HttpAction;
import dev.modelgate.idempotency.web.internal.HttpDecision;

/**
 * Answers a request the filter refuses: the problem's status, {@code Cache-Control: no-store} (a
 * refusal is about this moment, never to be cached), {@code Retry-After} in whole seconds when the
 * problem has one, and the body in the renderer's format.
 */
final class ProblemResponder {

	private final IdempotencyProblemRenderer renderer;

	ProblemResponder(IdempotencyProblemRenderer renderer) {
		this.renderer = renderer;
	}

	/** Answers a refusal, with {@code Location} to the key's status when the decision names it. */
	void reject(HttpAction.Reject reject, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		if (reject.location() != null) {
			response.setHeader("Location", request.getContextPath() + reject.location());
		}
		reject(reject.problem(), request, response);
	}

	void reject(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		response.setStatus(problem.status());
		response.setHeader("Cache-Control", "no-store");
		if (problem.retryAfter() != null) {
			response.setHeader("Retry-After", HttpDecision.retryAfterSeconds(problem.retryAfter()));
		}
		this.renderer.render(problem, request, response);
	}

}
