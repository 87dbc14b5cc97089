package dev.modelgate.idempotency.core.internal;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StreamEvent;
import dev.modelgate.idempotency.core.StreamSlice;

/**
 * What the encrypting stores do with the bytes of a record, once for the blocking and the
 * asynchronous store: seal what is written, open what is read.
 *
 * <p>A completed outcome that does not open (altered, sealed with a key no longer configured, copied
 * from another record, or written before encryption was turned on) is answered as a completed record
 * whose result is not kept: the operation ran, so it does not run again, and nothing of the bytes is
 * replayed (HTTP answers 410 {@code idempotency_result_unavailable}; the template throws
 * {@code IdempotencyResultUnavailableException}). A WARN names the scope hash and why. A stream that
 * does not open while it is read fails as an unreadable record does ({@link IdempotencyStoreException}).
 */
public final class RecordSeal {

	private static final Logger logger = LoggerFactory.getLogger(RecordSeal.class);

	private final RecordCipher cipher;

	/** @param keys the active key and every key still needed to read */
	public RecordSeal(RecordEncryptionKeys keys) {
		this.cipher = new RecordCipher(keys);
	}

	@Nullable StoredOutcome sealed(String scope, @Nullable StoredOutcome outcome) {
		if (outcome == null) {
			return null;
		}
		return new StoredOutcome(outcome.kind(),
				this.cipher.seal(outcome.payload(), RecordCipher.outcomeContext(scope, outcome.kind())));
	}

	byte[] sealedHead(String scope, byte[] head) {
		return this.cipher.seal(head, RecordCipher.outcomeContext(scope, StoredOutcome.Kind.STREAM));
	}

	List<byte[]> sealedEvents(String scope, long fromSequence, List<byte[]> events) {
		List<byte[]> sealed = new ArrayList<>(events.size());
		for (int i = 0; i < events.size(); i++) {
			sealed.add(this.cipher.seal(events.get(i), RecordCipher.eventContext(scope, fromSequence + i)));
		}
		return sealed;
	}

	BeginResult opened(String scope, BeginResult result) {
		StoredOutcome stored = result.stored();
		if (result.outcome() != BeginResult.Outcome.COMPLETED || stored == null) {
			return result;
		}
		try {
			return BeginResult.completed(new StoredOutcome(stored.kind(),
					this.cipher.open(stored.payload(), RecordCipher.outcomeContext(scope, stored.kind()))));
		}
		catch (IdempotencyStoreException ex) {
			logger.warn("The stored outcome of idempotency scope {} cannot be decrypted ({}); answering as a result "
					+ "that was not kept", scope, ex.getMessage());
			return BeginResult.completed(null);
		}
	}

	StreamSlice opened(String scope, StreamSlice slice) {
		try {
			byte[] head = this.cipher.open(slice.head(), RecordCipher.outcomeContext(scope, StoredOutcome.Kind.STREAM));
			List<StreamEvent> events = new ArrayList<>(slice.events().size());
			for (StreamEvent event : slice.events()) {
				events.add(new StreamEvent(event.sequence(),
						this.cipher.open(event.data(), RecordCipher.eventContext(scope, event.sequence()))));
			}
			return new StreamSlice(head, events, slice.state(), slice.attempt());
		}
		catch (IdempotencyStoreException ex) {
			throw new IdempotencyStoreException("The recorded stream of idempotency scope " + scope
					+ " cannot be decrypted: " + ex.getMessage(), ex);
		}
	}

}
