package dev.modelgate.idempotency.core.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Arrays;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;

/**
 * Seals stored bytes in an AES-256-GCM envelope and opens them again:
 *
 * <pre>
 *   version (1 byte, 1) | key id length (1 byte) | key id (ASCII) | nonce (24 bytes) | ciphertext | tag (16 bytes)
 * </pre>
 *
 * The associated data is the envelope's header (version, key id, nonce) followed by the record's
 * context (scope hash and what the bytes are: an outcome of a kind, or event n), so an envelope copied
 * to another scope, kind or place in a stream fails to open, as does any altered byte.
 *
 * <p>Each envelope is sealed with its own key, derived from the named key and the first 12 bytes of
 * the nonce (AES of two counter blocks, as XAES-256-GCM does with CMAC), under the nonce's last 12
 * bytes as GCM's IV: random 96-bit IVs under one key would collide after some 2^32 records, which a
 * busy gateway recording stream events reaches within days; with 192 random bits, never.
 */
public final class RecordCipher {

	private static final byte VERSION = 1;

	private static final int SALT = 12;

	private static final int IV = 12;

	private static final int TAG_BITS = 128;

	/** Sets the derivation's blocks apart from anything else the key might encrypt in ECB mode. */
	private static final byte[] DERIVATION_LABEL = "MGR".getBytes(StandardCharsets.US_ASCII);

	private static final SecureRandom RANDOM = seededRandom();

	private static final ThreadLocal<Ciphers> CIPHERS = ThreadLocal.withInitial(Ciphers::new);

	private final RecordEncryptionKeys keys;

	/** @param keys the active key and every key still needed to read */
	public RecordCipher(RecordEncryptionKeys keys) {
		this.keys = keys;
	}

	/**
	 * {@return the context of a stored outcome of {@code kind}; a stream's head is the outcome of kind
	 * {@code STREAM} that {@code begin} later answers}
	 * @param scope the scope hash
	 * @param kind the outcome's kind
	 */
	public static byte[] outcomeContext(String scope, StoredOutcome.Kind kind) {
		return (scope + "\0outcome\0" + kind.code()).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * {@return the context of a stream's event}
	 * @param scope the scope hash
	 * @param sequence the event's sequence
	 */
	public static byte[] eventContext(String scope, long sequence) {
		return (scope + "\0event\0" + sequence).getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Seals {@code plaintext} with the active key.
	 * @param plaintext the bytes to store
	 * @param context what the bytes are and whose (see {@link #outcomeContext}, {@link #eventContext})
	 * @return the envelope
	 * @throws IllegalStateException when the active key is missing or unusable
	 */
	public byte[] seal(byte[] plaintext, byte[] context) {
		String keyId = this.keys.activeKeyId();
		SecretKey key = this.keys.key(keyId);
		if (key == null) {
			throw new IllegalStateException("The active record encryption key '" + keyId + "' is missing");
		}
		byte[] id = keyId.getBytes(StandardCharsets.US_ASCII);
		int headerLength = 2 + id.length + SALT + IV;
		byte[] envelope = new byte[headerLength + plaintext.length + TAG_BITS / 8];
		envelope[0] = VERSION;
		envelope[1] = (byte) id.length;
		System.arraycopy(id, 0, envelope, 2, id.length);
		byte[] nonce = new byte[SALT + IV];
		RANDOM.nextBytes(nonce);
		System.arraycopy(nonce, 0, envelope, 2 + id.length, nonce.length);
		try {
			Cipher cipher = gcm(Cipher.ENCRYPT_MODE, key, envelope, 2 + id.length);
			cipher.updateAAD(envelope, 0, headerLength);
			cipher.updateAAD(context);
			cipher.doFinal(plaintext, 0, plaintext.length, envelope, headerLength);
			return envelope;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("Cannot seal a record with key '" + keyId + "'", ex);
		}
	}

	/**
	 * Opens an envelope written by {@link #seal}.
	 * @param envelope the stored bytes
	 * @param context what the bytes must be and whose, as they were sealed
	 * @return the plaintext
	 * @throws IdempotencyStoreException when the bytes are not an envelope, name a key that is not
	 * there, or fail authentication (altered, sealed with another key, or for another record)
	 */
	public byte[] open(byte[] envelope, byte[] context) {
		if (envelope.length < 2 || envelope[0] != VERSION) {
			throw new IdempotencyStoreException("not an encrypted record (written before encryption was turned on, "
					+ "or altered)");
		}
		int idLength = Byte.toUnsignedInt(envelope[1]);
		int headerLength = 2 + idLength + SALT + IV;
		if (envelope.length < headerLength + TAG_BITS / 8) {
			throw new IdempotencyStoreException("truncated encrypted record");
		}
		String keyId = new String(envelope, 2, idLength, StandardCharsets.US_ASCII);
		SecretKey key = RecordEncryptionKeys.KEY_ID.matcher(keyId).matches() ? this.keys.key(keyId) : null;
		if (key == null) {
			throw new IdempotencyStoreException("sealed with key id '" + printable(keyId)
					+ "', which is not configured (a retired key removed too early?)");
		}
		try {
			Cipher cipher = gcm(Cipher.DECRYPT_MODE, key, envelope, 2 + idLength);
			cipher.updateAAD(envelope, 0, headerLength);
			cipher.updateAAD(context);
			return cipher.doFinal(envelope, headerLength, envelope.length - headerLength);
		}
		catch (AEADBadTagException ex) {
			throw new IdempotencyStoreException("authentication failed with key '" + keyId
					+ "' (the bytes were altered, or sealed with another key or for another record)");
		}
		catch (GeneralSecurityException ex) {
			throw new IdempotencyStoreException("cannot open with key '" + keyId + "'", ex);
		}
	}

	/** A GCM cipher under the envelope's own key, derived from {@code key} and the nonce at {@code nonceAt}. */
	private static Cipher gcm(int mode, SecretKey key, byte[] envelope, int nonceAt) throws GeneralSecurityException {
		byte[] blocks = new byte[32];
		for (int i = 0; i < 2; i++) {
			blocks[i * 16] = (byte) (i + 1);
			System.arraycopy(DERIVATION_LABEL, 0, blocks, i * 16 + 1, DERIVATION_LABEL.length);
			System.arraycopy(envelope, nonceAt, blocks, i * 16 + 4, SALT);
		}
		Ciphers ciphers = CIPHERS.get();
		byte[] derived = ciphers.derivation(key).doFinal(blocks);
		ciphers.gcm.init(mode, new SecretKeySpec(derived, "AES"),
				new GCMParameterSpec(TAG_BITS, envelope, nonceAt + SALT, IV));
		Arrays.fill(derived, (byte) 0);
		return ciphers.gcm;
	}

	/**
	 * A thread's ciphers, made once: {@code Cipher.getInstance} and the configured key's schedule cost
	 * more than sealing a small answer (see dev/notes/encryption.md). Each record's GCM key is new, so
	 * the GCM cipher is initialised for every record all the same.
	 */
	private static final class Ciphers {

		private final Cipher ecb;

		private final Cipher gcm;

		private @Nullable SecretKey ecbKey;

		Ciphers() {
			try {
				this.ecb = Cipher.getInstance("AES/ECB/NoPadding");
				this.gcm = Cipher.getInstance("AES/GCM/NoPadding");
			}
			catch (GeneralSecurityException ex) {
				throw new IllegalStateException("This JDK has no AES/GCM", ex);
			}
		}

		Cipher derivation(SecretKey key) throws GeneralSecurityException {
			if (this.ecbKey != key) {
				this.ecb.init(Cipher.ENCRYPT_MODE, key);
				this.ecbKey = key;
			}
			return this.ecb;
		}

	}

	private static String printable(String keyId) {
		return keyId.chars().allMatch((c) -> c >= 0x20 && c < 0x7f) ? keyId : "(unprintable)";
	}

	private static SecureRandom seededRandom() {
		SecureRandom random;
		try {
			random = SecureRandom.getInstance("DRBG");
		}
		catch (NoSuchAlgorithmException ex) {
			random = new SecureRandom();
		}
		// A DRBG takes its seed on first use: let that be now, not on a request's thread (an event loop).
		random.nextBytes(new byte[16]);
		return random;
	}

}
