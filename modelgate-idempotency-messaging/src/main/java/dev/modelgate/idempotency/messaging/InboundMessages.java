package dev.modelgate.idempotency.messaging;

import org.jspecify.annotations.Nullable;

/**
 * The message each listener thread is handling: set by the broker's hook before the listener runs
 * (Kafka's {@code RecordInterceptor}, an AMQP after-receive post-processor), read by
 * {@code @IdempotentListener} methods.
 */
public final class InboundMessages {

	private static final ThreadLocal<InboundMessage> CURRENT = new ThreadLocal<>();

	private static final ThreadLocal<InboundBatch> BATCH = new ThreadLocal<>();

	/** The key the listener's advice evaluated for this thread's message, for the skipped-duplicate log line. */
	private static final ThreadLocal<String> KEY = new ThreadLocal<>();

	private InboundMessages() {
	}

	/** @param message the message this thread handles now */
	public static void set(InboundMessage message) {
		BATCH.remove();
		CURRENT.set(message);
		KEY.remove();
	}

	/**
	 * @param batch the batch this thread hands to a batch listener now; it stays known while the
	 * container's error handler retries it
	 */
	public static void setBatch(InboundBatch batch) {
		clear();
		BATCH.set(batch);
	}

	/** Forgets this thread's message or batch. */
	public static void clear() {
		CURRENT.remove();
		BATCH.remove();
		KEY.remove();
	}

	/** {@return this thread's batch, or {@code null}} */
	static @Nullable InboundBatch batch() {
		return BATCH.get();
	}

	/** @param message the message of the batch whose key is decided now */
	static void deciding(InboundMessage message) {
		CURRENT.set(message);
		KEY.remove();
	}

	/** @param key the key evaluated for this thread's message */
	static void keyed(String key) {
		KEY.set(key);
	}

	/** {@return the key evaluated for this thread's message, or {@code null}} */
	static @Nullable String key() {
		return KEY.get();
	}

	/** {@return this thread's message, or {@code null}} */
	static @Nullable InboundMessage find() {
		return CURRENT.get();
	}

	static InboundMessage current() {
		InboundMessage message = CURRENT.get();
		if (message == null) {
			throw new IllegalStateException("@IdempotentListener method called outside a listener container, or by "
					+ "a container without the idempotency hook (containers of a factory created by the application "
					+ "context get it; see docs/MESSAGING.md)");
		}
		return message;
	}

}
