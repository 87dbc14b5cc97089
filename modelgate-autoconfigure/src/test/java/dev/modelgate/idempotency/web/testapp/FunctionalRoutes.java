package dev.modelgate.idempotency.web.testapp;

import java.util.Map;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import dev.modelgate.idempotency.Idempotent;

import static dev.modelgate.idempotency.web.servlet.IdempotentRoute.idempotent;
import static org.springframework.web.servlet.function.RouterFunctions.route;

/**
 * Spring MVC functional endpoints without annotations: some made idempotent by the
 * {@code IdempotentRoute} attribute, the others left to {@code modelgate.idempotency.routes}.
 */
@Configuration(proxyBeanMethods = false)
public class FunctionalRoutes {

	@Bean
	RouterFunction<ServerResponse> functionalTestRoutes(Invocations invocations) {
		return route()
			// Covered by configuration only.
			.POST("/fn/declared/{id}", (request) -> order(invocations, "fn-declared", request))
			.POST("/fn/required", (request) -> order(invocations, "fn-required", request))
			.POST("/fn/unmarked", (request) -> order(invocations, "fn-unmarked", request))
			// Covered by the route attribute.
			.POST("/fn/marked", (request) -> order(invocations, "fn-marked", request))
			.withAttributes(idempotent())
			.POST("/fn/marked-wait", (request) -> {
				int run = invocations.increment("fn-marked-wait");
				invocations.awaitGate();
				return ServerResponse.ok().body(Map.of("run", run));
			})
			.withAttributes(idempotent().inProgress(Idempotent.InProgress.WAIT))
			.POST("/fn/sse", (request) -> {
				invocations.increment("fn-sse");
				return ServerResponse.sse((sse) -> {
					try {
						sse.send("one");
						sse.send("two");
						sse.complete();
					}
					catch (Exception ex) {
						sse.error(ex);
					}
				});
			})
			.withAttributes(idempotent())
			.build();
	}

	private static ServerResponse order(Invocations invocations, String handler, ServerRequest request)
			throws Exception {
		int run = invocations.increment(handler);
		String body = request.body(String.class);
		return ServerResponse.status(HttpStatus.CREATED)
			.header("Location", "/orders/" + run)
			.body(Map.of("handler", handler, "run", run, "received", body,
					"id", request.pathVariables().getOrDefault("id", "")));
	}

}
