package dev.modelgate.idempotency.core;

import dev.modelgate.idempotency.core.internal.EncryptingAsyncIdempotencyStore;
import dev.modelgate.idempotency.core.internal.EncryptingIdempotencyStore;
import dev.modelgate.idempotency.core.internal.RecordSeal;

/**
 * Encryption at rest of what a store keeps of an answer: a store wrapped by {@link #decorate} keeps
 * every stored outcome (an HTTP response's status, headers and body; a template's value or failure), a
 * stream's head and each of its events in an AES-256-GCM envelope sealed with the
 * {@linkplain RecordEncryptionKeys#activeKeyId() active key}, whose id it carries so that keys can
 * rotate. The envelope is bound to its record (scope hash, kind, place in the stream): bytes altered or
 * copied from another record do not open. The fingerprint, token and state stay as they are (the scope
 * and fingerprint are hashes already).
 *
 * <p>A completed record whose outcome does not open (altered, sealed with a key no longer configured,
 * or written before encryption was turned on) is answered by {@code begin} as a completed record whose
 * result was not kept: it is never replayed and never run again (HTTP answers 410
 * {@code idempotency_result_unavailable}; {@link IdempotencyTemplate} throws
 * {@link IdempotencyResultUnavailableException}); a WARN names its scope hash and why. A recorded stream
 * that does not open fails to read as an unreadable record does ({@link IdempotencyStoreException}).
 *
 * <p>Spring Boot applications turn it on with the {@code modelgate.idempotency.encryption.*}
 * properties or a {@link RecordEncryptionKeys} bean. Elsewhere, pass {@code encryption::decorate} to
 * {@link IdempotencyCoordinator#create(IdempotencyStore, java.time.Duration, java.util.function.UnaryOperator)}.
 */
public final class RecordEncryption {

	private final RecordSeal seal;

	/** @param keys the active key and every key still needed to read what was stored before */
	public RecordEncryption(RecordEncryptionKeys keys) {
		this.seal = new RecordSeal(keys);
	}

	/**
	 * {@return {@code store}, keeping outcomes and streams encrypted}
	 * @param store the store to wrap
	 */
	public IdempotencyStore decorate(IdempotencyStore store) {
		return new EncryptingIdempotencyStore(store, this.seal);
	}

	/**
	 * {@return {@code store}, keeping outcomes and streams encrypted}
	 * @param store the store to wrap
	 */
	public AsyncIdempotencyStore decorate(AsyncIdempotencyStore store) {
		return new EncryptingAsyncIdempotencyStore(store, this.seal);
	}

}
