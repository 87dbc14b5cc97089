package dev.modelgate.idempotency.docs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/TESTING.md, "Turning it off in a test": {@code @Idempotent} then has no effect. */
@Tag("boot")
@SpringBootTest(classes = GuideApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = "modelgate.idempotency.enabled=false")
class DisabledIdempotencyTestingGuideTests {

	@Autowired
	private GuideOrderController orders;

	@LocalServerPort
	private int port;

	@Test
	void withTheLibraryOffTheSameKeyRunsTheHandlerEveryTime() throws Exception {
		GuideClient client = new GuideClient(this.port);

		assertThat(client.post("order-4").statusCode()).isEqualTo(201);
		assertThat(client.post("order-4").headers().firstValue("Idempotent-Replayed")).isEmpty();
		assertThat(this.orders.placed()).isEqualTo(2);
	}

}
