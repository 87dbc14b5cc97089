package dev.modelgate.sample;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Where the tests expect Redis (REDIS_HOST and REDIS_PORT, as the redis profile reads them), and
 * whether it is there.
 */
final class RedisReachable {

	private RedisReachable() {
	}

	static boolean check() {
		String host = System.getenv().getOrDefault("REDIS_HOST", "127.0.0.1");
		int port = Integer.parseInt(System.getenv().getOrDefault("REDIS_PORT", "6379"));
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(host, port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
