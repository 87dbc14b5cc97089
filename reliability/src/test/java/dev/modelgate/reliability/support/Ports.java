package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/** Local TCP ports. */
public final class Ports {

	/** Where to look when the ephemeral range cannot be read: below Linux's default (32768-60999). */
	private static final int DEFAULT_EPHEMERAL_LOW = 32768;

	private static final int LOWEST = 10_000;

	private Ports() {
	}

	/**
	 * A port that is free now and outside the kernel's ephemeral range. A port the kernel picks for a
	 * listener comes from that range, and so does the local port of every outgoing connection: in the
	 * seconds a process takes to start and bind it, a Redis or PostgreSQL client's connection could
	 * take it (seen: "Port ... was already in use" in a process-kill test on CI).
	 */
	public static int free() {
		int high = ephemeralLow();
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
			try (ServerSocket socket = new ServerSocket()) {
				socket.setReuseAddress(true);
				socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
				return port;
			}
			catch (IOException ex) {
				// Taken: try another.
			}
		}
		throw new UncheckedIOException(new IOException("No free port between " + LOWEST + " and " + high));
	}

	private static int ephemeralLow() {
		try {
			String range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim();
			int low = Integer.parseInt(range.split("\\s+")[0]);
			return (low > LOWEST + 1000) ? low : DEFAULT_EPHEMERAL_LOW;
		}
		catch (IOException | RuntimeException ex) {
			return DEFAULT_EPHEMERAL_LOW;
		}
	}

}
