package dev.modelgate.idempotency.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis server the tests talk to: the one at {@code REDIS_HOST}:{@code REDIS_PORT} (default
 * {@code 127.0.0.1:6379}) when it answers {@code PING}, else a {@code redis:7-alpine} container
 * started once per JVM when Docker is available. With neither, tests fail rather than skip, because
 * a store test that did not run proves nothing.
 */
public final class RedisTestServer {

	private static final int REDIS_PORT = 6379;

	private static final int PING_TIMEOUT_MILLIS = 1000;

	private static Endpoint endpoint;

	private RedisTestServer() {
	}

	/** {@return the test server's host} */
	public static String host() {
		return endpoint().host();
	}

	/** {@return the test server's port} */
	public static int port() {
		return endpoint().port();
	}

	/** {@return a started connection factory for the test server; the caller destroys it} */
	public static LettuceConnectionFactory connectionFactory() {
		return connectionFactory(LettuceClientConfiguration.defaultConfiguration());
	}

	/**
	 * {@return a started connection factory for the test server with the given client settings}
	 * @param clientConfiguration the client settings
	 */
	public static LettuceConnectionFactory connectionFactory(LettuceClientConfiguration clientConfiguration) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration(host(), port()), clientConfiguration);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static synchronized Endpoint endpoint() {
		if (endpoint == null) {
			endpoint = locate();
		}
		return endpoint;
	}

	private static Endpoint locate() {
		String host = System.getenv().getOrDefault("REDIS_HOST", "127.0.0.1");
		int port = Integer.parseInt(System.getenv().getOrDefault("REDIS_PORT", String.valueOf(REDIS_PORT)));
		if (answersPing(host, port)) {
			return new Endpoint(host, port);
		}
		if (DockerClientFactory.instance().isDockerAvailable()) {
			return startContainer();
		}
		throw new IllegalStateException("These tests need a Redis server, and none was found: nothing answered PING at "
				+ host + ":" + port + " (set REDIS_HOST and REDIS_PORT to use another server) and Docker is not "
				+ "available to start one. Start a throw-away server with: "
				+ "redis-server --daemonize yes --port 6379 --save \"\" --appendonly no");
	}

	static boolean answersPing(String host, int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), PING_TIMEOUT_MILLIS);
			socket.setSoTimeout(PING_TIMEOUT_MILLIS);
			socket.getOutputStream().write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
			BufferedReader reply = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			return "+PONG".equals(reply.readLine());
		}
		catch (IOException ex) {
			return false;
		}
	}

	@SuppressWarnings("resource")
	private static Endpoint startContainer() {
		// Never stopped here: Testcontainers removes it when the JVM exits, and every test class shares it.
		GenericContainer<?> redis = new GenericContainer<>(DockerImageName.parse("redis:7-alpine"))
			.withExposedPorts(REDIS_PORT);
		redis.start();
		return new Endpoint(redis.getHost(), redis.getMappedPort(REDIS_PORT));
	}

	private record Endpoint(String host, int port) {
	}

}
