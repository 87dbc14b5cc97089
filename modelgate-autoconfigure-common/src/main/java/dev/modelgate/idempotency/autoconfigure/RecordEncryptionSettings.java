package dev.modelgate.idempotency.autoconfigure;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import dev.modelgate.idempotency.core.RecordEncryptionKeys;

/**
 * The keys of {@code modelgate.idempotency.encryption}: checked with the other settings (each message
 * names the key's id, never its value), then made into {@link RecordEncryptionKeys}.
 */
final class RecordEncryptionSettings {

	private static final int KEY_BYTES = 32;

	private RecordEncryptionSettings() {
	}

	/** {@return what is wrong with the key {@code id}, or {@code null} when it is a usable key} */
	static @Nullable String problem(String id, @Nullable String base64) {
		String name = ModelgateIdempotencyProperties.PREFIX + ".encryption.keys." + id;
		if (!RecordEncryptionKeys.KEY_ID.matcher(id).matches()) {
			return name + ": a key id must be 1 to 32 letters, digits, '_' or '-'";
		}
		byte[] key;
		try {
			key = Base64.getDecoder().decode((base64 != null) ? base64.strip() : "");
		}
		catch (IllegalArgumentException ex) {
			return name + " is not base64: give 32 random bytes in base64, such as the output of "
					+ "'openssl rand -base64 32'";
		}
		if (key.length != KEY_BYTES) {
			return name + " is " + key.length + " bytes long: an AES-256 key is 32 random bytes in base64, such as "
					+ "the output of 'openssl rand -base64 32'";
		}
		return null;
	}

	/** {@return the configured keys, which the settings check has passed} */
	static RecordEncryptionKeys keys(ModelgateIdempotencyProperties.Encryption encryption) {
		Map<String, SecretKey> keys = new LinkedHashMap<>();
		encryption.getKeys()
			.forEach((id, base64) -> keys.put(id, new SecretKeySpec(Base64.getDecoder().decode(base64.strip()), "AES")));
		String active = encryption.getActiveKeyId();
		return RecordEncryptionKeys.of((active != null) ? active.strip() : "", keys);
	}

}
