package dev.modelgate.sample.agent;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The agent's model is the gateway's own endpoint, on {@code server.port} (application.yml). Spring AI
 * builds its OpenAI client before the server listens, so a test that runs the agent cannot use the random
 * port {@code RANDOM_PORT} picks later: it picks a free port for the server beforehand.
 */
public final class AgentServerPort {

	private AgentServerPort() {
	}

	/** For a {@code @DynamicPropertySource}: the server on a free port, the actuator on a random one. */
	public static void register(DynamicPropertyRegistry registry) {
		int port = freePort();
		registry.add("server.port", () -> port);
		registry.add("management.server.port", () -> 0);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
