package dev.modelgate.idempotency.docs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * A keyed endpoint that counts its runs and, when a test asks, holds its next run on a latch (the
 * 409 example of docs/TESTING.md).
 */
@RestController
public class GuideOrderController {

	private final AtomicInteger placed = new AtomicInteger();

	private volatile CountDownLatch inside = new CountDownLatch(0);

	private volatile CountDownLatch release = new CountDownLatch(0);

	@PostMapping("/orders")
	@Idempotent
	public ResponseEntity<String> place(@RequestBody String order) throws InterruptedException {
		int number = this.placed.incrementAndGet();
		this.inside.countDown();
		this.release.await(10, TimeUnit.SECONDS);
		return ResponseEntity.status(201).body("{\"order\":" + number + "}");
	}

	/** {@return how many times the handler ran} */
	public int placed() {
		return this.placed.get();
	}

	/** Makes the next runs wait in the handler until {@link #release()}. */
	public void holdNextOrder() {
		this.inside = new CountDownLatch(1);
		this.release = new CountDownLatch(1);
	}

	/**
	 * Waits until a run is inside the handler.
	 * @throws InterruptedException if interrupted
	 */
	public void awaitHeld() throws InterruptedException {
		if (!this.inside.await(10, TimeUnit.SECONDS)) {
			throw new AssertionError("no request reached the handler within 10 s");
		}
	}

	/** Lets the held runs finish. */
	public void release() {
		this.release.countDown();
	}

}
