package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/** Local TCP ports. */
public final class Ports {

	/** Where to look when the ephemeral range cannot be read: below Linux's default (32768-60999). */
	private static final int DEFAULT_EPHEMERAL_LOW = 32768;

	private static final int LOWEST = 10_000;

	/** Redis Cluster's bus listens on the node's port plus this. */
	private static final int CLUSTER_BUS_OFFSET = 10_000;

	/**
	 * Every port handed out in this JVM: gateways started together each bind theirs seconds later, so
	 * "free now" alone could give two of them the same one, and the one that loses the bind dies after
	 * the other has answered its readiness probe.
	 */
	private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

	private Ports() {
	}

	/**
	 * A port that is free now and outside the kernel's ephemeral range. A port the kernel picks for a
	 * listener comes from that range, and so does the local port of every outgoing connection: in the
	 * seconds a process takes to start and bind it, a Redis or PostgreSQL client's connection could
	 * take it (seen: "Port ... was already in use" in a process-kill test on CI).
	 */
	public static int free() {
		return free(0);
	}

	/**
	 * A port for a Redis Cluster node: it and its cluster bus port (the port plus 10000) are free now
	 * and outside the ephemeral range (seen on CI: a bus port inside it was taken by a connection).
	 */
	public static int freeWithClusterBus() {
		return free(CLUSTER_BUS_OFFSET);
	}

	private static int free(int alsoAtOffset) {
		// An unusually low ephemeral range leaves no room below it for the bus port: then only "free now".
		int high = Math.max(LOWEST + 1000, ephemeralLow() - alsoAtOffset);
		for (int attempt = 0; attempt < 1000; attempt++) {
			int port = ThreadLocalRandom.current().nextInt(LOWEST, high);
			if (isFree(port) && (alsoAtOffset == 0 || isFree(port + alsoAtOffset)) && handedOut.add(port)
					&& (alsoAtOffset == 0 || handedOut.add(port + alsoAtOffset))) {
				return port;
			}
		}
		throw new UncheckedIOException(new IOException("No free port between " + LOWEST + " and " + high));
	}

	private static boolean isFree(int port) {
		try (ServerSocket socket = new ServerSocket()) {
			socket.setReuseAddress(true);
			socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
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
