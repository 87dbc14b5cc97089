package dev.modelgate.consumers.memory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.modelgate.consumers.support.ReplayScenario;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with only the starter and Spring MVC ({@code store=memory}) starts, replays a retry
 * with the same key and body without running the handler again, and rejects the key with another body. Its
 * properties are the README's, {@code client-identity-header=Authorization} included, so every request carries
 * the README's {@code Authorization} header, and another client's key space is its own.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MemoryOnlyReplayTests extends ReplayScenario {

	/** The README's curl example's header. */
	private static final String README_AUTHORIZATION = "Bearer k1";

	private static final HttpClient HTTP = HttpClient.newHttpClient();

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

	@Override
	protected HttpResponse<byte[]> post(String key, String json) throws IOException, InterruptedException {
		return post(key, json, README_AUTHORIZATION);
	}

	@Test
	void anotherClientWithTheSameKeyRunsTheHandlerInItsOwnKeySpace() throws Exception {
		String key = UUID.randomUUID().toString();
		HttpResponse<byte[]> first = post(key, ORDER);
		int before = invocations();

		HttpResponse<byte[]> other = post(key, ORDER, "Bearer k2");
		assertThat(other.statusCode()).as(describe(other)).isEqualTo(first.statusCode());
		assertThat(other.headers().firstValue(REPLAYED_HEADER)).as(describe(other)).isEmpty();
		assertThat(other.body()).as(describe(other)).isNotEqualTo(first.body());
		assertThat(invocations() - before).as("handler runs").isEqualTo(1);
	}

	@Test
	void aKeyedRequestWithoutTheIdentityHeaderIsRefused() throws Exception {
		HttpResponse<byte[]> anonymous = post(UUID.randomUUID().toString(), ORDER, null);
		assertThat(anonymous.statusCode()).as(describe(anonymous)).isEqualTo(400);
		assertThat(new String(anonymous.body())).as(describe(anonymous)).contains("idempotency_client_unidentified");
	}

	private HttpResponse<byte[]> post(String key, String json, String authorization)
			throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + "/orders"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString(json));
		if (authorization != null) {
			request.header("Authorization", authorization);
		}
		return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
	}

}
