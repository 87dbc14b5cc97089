package dev.modelgate.consumers.memory;

import org.junit.jupiter.api.Tag;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.consumers.support.ReplayScenario;

/**
 * Proves that an application with only the starter and Spring MVC ({@code store=memory}) starts, replays a retry
 * with the same key and body without running the handler again, and rejects the key with another body.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MemoryOnlyReplayTests extends ReplayScenario {

	@LocalServerPort
	private int port;

	@Autowired
	private OrderController orders;

	@Override
	protected int port() {
		return this.port;
	}

	@Override
	protected int invocations() {
		return this.orders.invocations();
	}

}
