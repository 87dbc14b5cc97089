package dev.modelgate.reliability.support;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Clients that keep the gateways busy, each the way a careful client retries: a new key per logical
 * operation, and the same key again after a 409 or 503 (or a lost connection) until the operation
 * gets its 200. Every attempt is kept for the analysis.
 */
public final class LoadGenerator implements AutoCloseable {

	private static final long RETRY_PAUSE_MILLIS = 100;

	private final List<SampleApp> apps;

	private final String prefix;

	private final Gateway gateway = new Gateway(Duration.ofSeconds(30));

	private final Queue<Attempt> attempts = new ConcurrentLinkedQueue<>();

	private final List<Thread> clients = new ArrayList<>();

	private final AtomicInteger next = new AtomicInteger();

	private volatile boolean stopped;

	/**
	 * Starts {@code clients} client threads.
	 * @param prefix starts every tag (and key) this load sends
	 */
	public LoadGenerator(List<SampleApp> apps, int clients, String prefix) {
		this.apps = apps;
		this.prefix = prefix;
		for (int i = 0; i < clients; i++) {
			Thread client = new Thread(this::run, "load-client-" + i);
			client.setDaemon(true);
			this.clients.add(client);
			client.start();
		}
	}

	private void run() {
		while (!this.stopped) {
			String tag = this.prefix + "-" + this.next.getAndIncrement();
			String body = ChatRequests.request(tag);
			boolean done = false;
			while (!done && !this.stopped) {
				// Behind a load balancer, a retry may reach any gateway.
				SampleApp app = this.apps.get(ThreadLocalRandom.current().nextInt(this.apps.size()));
				Answer answer = this.gateway.send(app, tag, body);
				this.attempts.add(new Attempt(tag, app, answer));
				done = answer.status() == 200;
				if (!done) {
					Sleep.millis(RETRY_PAUSE_MILLIS);
				}
			}
		}
	}

	/** Every attempt so far. */
	public List<Attempt> attempts() {
		return List.copyOf(this.attempts);
	}

	/** Stops the clients after their requests in flight, and waits for them. */
	@Override
	public void close() {
		this.stopped = true;
		for (Thread client : this.clients) {
			try {
				client.join(60_000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	/**
	 * One request of the load.
	 *
	 * @param tag its key and upstream tag
	 * @param app the gateway it went to
	 * @param answer what came back
	 */
	public record Attempt(String tag, SampleApp app, Answer answer) {
	}

}
