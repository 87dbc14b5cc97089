package dev.modelgate.sample.error;

import java.io.IOException;

import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;

/**
 * Renders the library's refusals (key reused, request in progress, store unavailable, ...) as OpenAI
 * errors instead of RFC 9457 problems, so that OpenAI SDKs surface them like any other API error.
 * The problem's {@code code} is kept as is.
 */
@Component
public class OpenAiIdempotencyProblemRenderer implements IdempotencyProblemRenderer {

	private final JsonMapper jsonMapper;

	public OpenAiIdempotencyProblemRenderer(JsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void render(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		String type = OpenAiError.typeFor(HttpStatusCode.valueOf(problem.status()));
		byte[] body = this.jsonMapper.writeValueAsBytes(OpenAiError.of(problem.detail(), type, problem.code()));
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
	}

}
