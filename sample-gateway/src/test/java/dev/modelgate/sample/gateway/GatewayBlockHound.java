package dev.modelgate.sample.gateway;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;

import reactor.blockhound.BlockHound;
import reactor.blockhound.BlockingOperationError;

/** The BlockHound set-up every gateway test that starts the application shares. */
final class GatewayBlockHound {

	private static final String DELAYED_WORK_QUEUE = ScheduledThreadPoolExecutor.class.getName() + "$DelayedWorkQueue";

	/**
	 * Installs BlockHound once per JVM, before any gateway test starts a context: a thread that is
	 * already waiting inside an allowed method when BlockHound is installed (a Reactor scheduler's
	 * worker parked in its queue) never passed the allowance's entry hook and would be failed when it
	 * wakes.
	 */
	static void install() {
		// As in the WebFlux tests: handing a call to the blocking stores' pool takes its queue's lock
		// for a moment, which is not a wait for the store; so does Lettuce's writer lock (SharedLock)
		// for the moment it queues a command of the asynchronous Redis store.
		BlockHound.install((builder) -> builder.allowBlockingCallsInside(ThreadPoolExecutor.class.getName(), "execute")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "incrementWriters")
			.allowBlockingCallsInside("io.lettuce.core.protocol.SharedLock", "doExclusive")
			// The asynchronous Redis store and the adapter over the blocking stores bound each call with
			// CompletableFuture.orTimeout, whose timer task the JDK queues, and removes once the answer
			// came, under its scheduler's queue lock: taken for a moment, contended now and then, never
			// a wait for the store.
			.allowBlockingCallsInside(DELAYED_WORK_QUEUE, "offer")
			.allowBlockingCallsInside(DELAYED_WORK_QUEUE, "remove")
			// Netty 4.2's adaptive allocator takes a StampedLock for the moment it adds a magazine
			// under contention (seen in CI, encoding a 409 on a timer thread): not a wait for I/O.
			.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup", "tryExpandMagazines")
			// The engine answers 503 with the error's message alone: the stack, printed to the test's
			// output, says where an event-loop thread blocked.
			.blockingMethodCallback((method) -> {
				new Exception("Blocking call on a non-blocking thread: " + method).printStackTrace(System.out);
				throw new BlockingOperationError(method);
			}));
	}

	private GatewayBlockHound() {
	}

}
