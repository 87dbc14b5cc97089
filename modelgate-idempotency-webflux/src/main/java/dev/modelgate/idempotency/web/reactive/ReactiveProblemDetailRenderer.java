package dev.modelgate.idempotency.web.reactive;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import org.springframework.core.ResolvableType;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.codec.HttpMessageWriter;
import org.springframework.web.server.ServerWebExchange;

import dev.modelgate.idempotency.web.IdempotencyProblem;

/**
 * Renders problems as RFC 9457 {@code application/problem+json}, with the snake_case {@code code} as
 * an extension member, through a JSON writer of the application's codecs (Jackson 3 on Spring
 * Framework 7, Jackson 2 on 6), so that this module needs no JSON library of its own. The body is
 * the one the servlet filter's {@code ProblemDetailRenderer} writes.
 */
public class ReactiveProblemDetailRenderer implements ReactiveIdempotencyProblemRenderer {

	private static final ResolvableType MAP = ResolvableType.forClass(Map.class);

	private final HttpMessageWriter<Object> json;

	/**
	 * @param writers the application's codecs ({@code ServerCodecConfigurer.getWriters()}); one of
	 * them must write a {@code Map} as {@code application/problem+json}
	 * @throws IllegalArgumentException when none does
	 */
	@SuppressWarnings("unchecked")
	public ReactiveProblemDetailRenderer(List<HttpMessageWriter<?>> writers) {
		this.json = (HttpMessageWriter<Object>) writers.stream()
			.filter((writer) -> writer.canWrite(MAP, MediaType.APPLICATION_PROBLEM_JSON))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"No codec writes application/problem+json: add a JSON library (Jackson) to the class path"));
	}

	@Override
	public Mono<Void> render(IdempotencyProblem problem, ServerWebExchange exchange) {
		ProblemDetail detail = ProblemDetail.forStatusAndDetail(HttpStatusCode.valueOf(problem.status()),
				problem.detail());
		detail.setType(URI.create(problem.type()));
		detail.setTitle(problem.title());
		detail.setInstance(URI.create(exchange.getRequest().getPath().value()));
		detail.setProperty("code", problem.code());
		problem.extensions().forEach(detail::setProperty);
		return this.json.write(Mono.just(toMembers(detail)), MAP, MediaType.APPLICATION_PROBLEM_JSON,
				exchange.getResponse(), Map.of());
	}

	/** The members in RFC 9457 order, extensions flattened beside them. */
	private static Map<String, Object> toMembers(ProblemDetail detail) {
		Map<String, Object> members = new LinkedHashMap<>();
		members.put("type", String.valueOf(detail.getType()));
		members.put("title", detail.getTitle());
		members.put("status", detail.getStatus());
		members.put("detail", detail.getDetail());
		members.put("instance", String.valueOf(detail.getInstance()));
		if (detail.getProperties() != null) {
			members.putAll(detail.getProperties());
		}
		return members;
	}

}
