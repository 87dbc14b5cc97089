package dev.modelgate.consumers.webflux;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.context.WebApplicationContext;

import dev.modelgate.consumers.support.ReplayScenario;
import dev.modelgate.idempotency.web.reactive.IdempotencyWebFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with only the starter and WebFlux ({@code store=memory}) starts as a
 * reactive application with the idempotency WebFilter, replays a retry with the same key and body
 * without running the handler again, and rejects the key with another body.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class WebFluxReplayTests extends ReplayScenario {

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Autowired
	private ApplicationContext context;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

	@Test
	void startsAsAReactiveApplicationWithTheWebFilter() {
		assertThat(this.context.getBeanNamesForType(HttpHandler.class)).isNotEmpty();
		assertThat(this.context).isNotInstanceOf(WebApplicationContext.class);
		assertThat(this.context.getBeansOfType(IdempotencyWebFilter.class)).hasSize(1);
	}

}
