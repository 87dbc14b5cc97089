package dev.modelgate.idempotency.core;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import javax.crypto.SecretKey;

import org.jspecify.annotations.Nullable;

/**
 * The AES keys that {@link RecordEncryption} seals stored outcomes with: one active key for what is
 * written now, and every key still needed to read what was written before. Each key has an id that is
 * stored with each record, so keys can rotate: make a new key active, keep the old one here until the
 * records it sealed have expired ({@code ttl}), then remove it.
 *
 * <p>Back it with whatever holds the keys: a {@link java.security.KeyStore}, Spring Vault, a KMS
 * client that hands out data keys. {@link #key} is called for every record written and read, so an
 * implementation that fetches keys remotely should cache them.
 */
public interface RecordEncryptionKeys {

	/**
	 * What a key id is made of: 1 to 32 letters, digits, {@code _} and {@code -}, so that it reads the
	 * same in a property name, a log line and the stored envelope.
	 */
	Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,32}");

	/** {@return the id of the key that seals new records; {@link #key} must answer it} */
	String activeKeyId();

	/**
	 * {@return the AES key (256 bits) with this id, or {@code null} when there is none (a record sealed
	 * with a key since removed)}
	 * @param keyId the id stored with a record, or {@link #activeKeyId()}
	 */
	@Nullable SecretKey key(String keyId);

	/**
	 * Fixed keys, such as the ones given as properties.
	 * @param activeKeyId the id of the key that seals new records
	 * @param keys every key by id, the active one included
	 * @return the keys
	 * @throws IllegalArgumentException when there is no key, an id is not made of {@link #KEY_ID}, a key
	 * is not a 256-bit AES key, or {@code activeKeyId} names none of them; the message names the id,
	 * never a key
	 */
	static RecordEncryptionKeys of(String activeKeyId, Map<String, ? extends SecretKey> keys) {
		if (keys.isEmpty()) {
			throw new IllegalArgumentException("No record encryption key is given");
		}
		Map<String, SecretKey> copy = new LinkedHashMap<>();
		keys.forEach((id, key) -> {
			if (!KEY_ID.matcher(id).matches()) {
				throw new IllegalArgumentException("Record encryption key id '" + id
						+ "' must be 1 to 32 letters, digits, '_' or '-'");
			}
			byte[] encoded = key.getEncoded();
			if (!"AES".equalsIgnoreCase(key.getAlgorithm()) || (encoded != null && encoded.length != 32)) {
				throw new IllegalArgumentException("Record encryption key '" + id + "' must be a 256-bit AES key (32 bytes)");
			}
			copy.put(id, key);
		});
		if (!copy.containsKey(activeKeyId)) {
			throw new IllegalArgumentException("The active record encryption key id '" + activeKeyId
					+ "' is not among the keys given (" + String.join(", ", copy.keySet()) + ")");
		}
		Map<String, SecretKey> fixed = Map.copyOf(copy);
		return new RecordEncryptionKeys() {

			@Override
			public String activeKeyId() {
				return activeKeyId;
			}

			@Override
			public @Nullable SecretKey key(String keyId) {
				return fixed.get(keyId);
			}

		};
	}

}
