package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.modelgate.idempotency.web.IdempotencyProblem;

/**
 * Writes an {@link IdempotencyProblem} to the response. The default writes RFC 9457
 * {@code application/problem+json}; declare a bean of this type to use another format. The filter
 * sets the status, {@code Cache-Control: no-store} and {@code Retry-After} before calling it.
 */
@FunctionalInterface
public interface IdempotencyProblemRenderer {

	/**
	 * Writes the problem's body.
	 * @param problem what went wrong with the keyed request
	 * @param request the request
	 * @param response the response, its status and headers set
	 * @throws IOException when the body cannot be written
	 */
	void render(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException;

}
