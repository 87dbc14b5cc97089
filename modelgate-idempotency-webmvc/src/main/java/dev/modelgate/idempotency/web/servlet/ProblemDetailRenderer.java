package dev.modelgate.idempotency.web.servlet;

import java.io.IOException;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServletServerHttpResponse;

import dev.modelgate.idempotency.web.IdempotencyProblem;


/**
 * Renders problems as RFC 9457 {@code application/problem+json}, with the snake_case {@code code}
 * as an extension member, through a JSON message converter of the application's (Jackson 3's
 * {@code JacksonJsonHttpMessageConverter} on Spring Framework 7, Jackson 2's
 * {@code MappingJackson2HttpMessageConverter} on 6), so that this module needs no JSON library of its
 * own.
 */
public class ProblemDetailRenderer implements IdempotencyProblemRenderer {

	private final HttpMessageConverter<Object> json;

	/**
	 * @param json writes a {@code Map} as JSON
	 */
	public ProblemDetailRenderer(HttpMessageConverter<Object> json) {
		this.json = json;
	}

	@Override
	public void render(IdempotencyProblem problem, HttpServletRequest request, HttpServletResponse response)
			throws IOException {
		ProblemDetail detail = ProblemDetail.forStatusAndDetail(
				org.springframework.http.HttpStatusCode.valueOf(problem.status()), problem.detail());
		detail.setType(URI.create(problem.type()));
		detail.setTitle(problem.title());
		detail.setInstance(URI.create(request.getRequestURI()));
		detail.setProperty("code", problem.code());
		problem.extensions().forEach(detail::setProperty);
		ServletServerHttpResponse output = new ServletServerHttpResponse(response);
		this.json.write(toMembers(detail), MediaType.APPLICATION_PROBLEM_JSON, output);
		output.flush();
	}

	/** The members in RFC 9457 order, extensions flattened beside them. */
	private static Map<String, Object> toMembers(ProblemDetail detail) {
		Map<String, Object> members = new LinkedHashMap<>();
		members.put("type", detail.getType().toString());
		members.put("title", detail.getTitle());
		members.put("status", detail.getStatus());
		members.put("detail", detail.getDetail());
		members.put("instance", detail.getInstance().toString());
		if (detail.getProperties() != null) {
			members.putAll(detail.getProperties());
		}
		return members;
	}

}
