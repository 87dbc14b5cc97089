package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Local TCP ports. */
public final class Ports {

	private Ports() {
	}

	/** A port that was free a moment ago (the kernel picks it, so clashes between runs are unlikely). */
	public static int free() {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			socket.setReuseAddress(true);
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
