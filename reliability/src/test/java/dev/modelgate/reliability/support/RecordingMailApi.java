package dev.modelgate.reliability.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The mail API the outbox consumer calls, in the test JVM: it records the {@code Idempotency-Key} of every call
 * (an empty string for a call without one) and answers 202. A downstream that deduplicates on that key performs
 * one operation per distinct key.
 */
public final class RecordingMailApi implements AutoCloseable {

	private final HttpServer server;

	private final ExecutorService executor;

	private final List<String> keys = new CopyOnWriteArrayList<>();

	private RecordingMailApi(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	public static RecordingMailApi start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
			ExecutorService executor = Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, "recording-mail-api");
				thread.setDaemon(true);
				return thread;
			});
			RecordingMailApi api = new RecordingMailApi(server, executor);
			server.createContext("/mails", api::handle);
			server.setExecutor(executor);
			server.start();
			return api;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the mail API stub", ex);
		}
	}

	public String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** The keys of every call received, in order, duplicates included. */
	public List<String> keys() {
		return List.copyOf(this.keys);
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			exchange.getRequestBody().readAllBytes();
			String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
			this.keys.add((key != null) ? key : "");
			exchange.sendResponseHeaders(202, -1);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
