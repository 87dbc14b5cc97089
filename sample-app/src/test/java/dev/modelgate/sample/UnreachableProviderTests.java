package dev.modelgate.sample;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static dev.modelgate.sample.GatewayClient.chatRequest;
import static dev.modelgate.sample.GatewayClient.json;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway pointed at a provider that refuses connections.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class UnreachableProviderTests {

	@LocalServerPort
	int port;

	@DynamicPropertySource
	static void closedProviderPort(DynamicPropertyRegistry registry) throws IOException {
		String baseUrl = "http://127.0.0.1:" + closedPort() + "/v1";
		registry.add("modelgate.provider.base-url", () -> baseUrl);
	}

	@Test
	void turnsConnectionRefusedInto502OpenAiError() {
		HttpResponse<byte[]> response = new GatewayClient(this.port).chat(chatRequest());

		assertThat(response.statusCode()).isEqualTo(502);
		JsonNode error = json(response).path("error");
		assertThat(error.path("type").asString()).isEqualTo("upstream_error");
		assertThat(error.path("code").asString()).isEqualTo("upstream_unreachable");
	}

	/** A port nothing listens on: bound once to get a free number, then released. */
	static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
