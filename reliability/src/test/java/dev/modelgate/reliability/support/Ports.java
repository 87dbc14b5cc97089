package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

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

	/** Whether something accepts connections on the loopback port. */
	public static boolean isListening(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
