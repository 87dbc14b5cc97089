package dev.modelgate.idempotency.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.core.RecordEncryptionKeys;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.core.StoredOutcomeFilter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code modelgate.idempotency.encryption.*} properties turn encryption at rest on for the
 * auto-configured coordinator, a {@link RecordEncryptionKeys} bean does the same, keys that cannot
 * work fail start-up with a message that names the key's id and never its value, and a
 * {@link StoredOutcomeFilter} bean decides what is stored.
 */
@Tag("boot")
class RecordEncryptionAutoConfigurationTests {

	private static final String MARKER = "marker-of-a-personal-answer";

	private static final String KEY_1 = base64Key(1);

	private static final String KEY_2 = base64Key(2);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@Test
	void withoutEncryptionSettingsTheStoreKeepsPlainBytes() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean(RecordEncryptionKeys.class);
			assertThat(recordAndReadRaw(context)).contains(MARKER);
		});
	}

	@Test
	void activeKeyIdAndKeysTurnEncryptionOn() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.encryption.active-key-id=k2",
					"modelgate.idempotency.encryption.keys.k1=" + KEY_1, "modelgate.idempotency.encryption.keys.k2=" + KEY_2)
			.run((context) -> {
				assertThat(context).hasSingleBean(RecordEncryptionKeys.class);
				assertThat(recordAndReadRaw(context)).doesNotContain(MARKER);
				assertThat(replay(context)).isEqualTo(MARKER);
			});
	}

	@Test
	void aKeysBeanOfTheApplicationTurnsEncryptionOn() {
		this.contextRunner
			.withBean(RecordEncryptionKeys.class,
					() -> RecordEncryptionKeys.of("vault-7",
							Map.of("vault-7", new SecretKeySpec(Base64.getDecoder().decode(KEY_1), "AES"))))
			.run((context) -> {
				assertThat(recordAndReadRaw(context)).doesNotContain(MARKER);
				assertThat(replay(context)).isEqualTo(MARKER);
			});
	}

	@Test
	void aStoredOutcomeFilterBeanDecidesWhatIsStoredBeforeItIsEncrypted() {
		this.contextRunner
			.withPropertyValues("modelgate.idempotency.encryption.active-key-id=k1",
					"modelgate.idempotency.encryption.keys.k1=" + KEY_1)
			.withBean(StoredOutcomeFilter.class, () -> (outcome) -> new StoredOutcome(outcome.kind(),
					new String(outcome.payload(), StandardCharsets.UTF_8).replace(MARKER, "[left out]")
						.getBytes(StandardCharsets.UTF_8)))
			.run((context) -> {
				assertThat(recordAndReadRaw(context)).doesNotContain(MARKER).doesNotContain("[left out]");
				assertThat(replay(context)).isEqualTo("[left out]");
			});
	}

	@Test
	void aKeyOfTheWrongLengthFailsStartUpNamingItsIdNotItsValue() {
		String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
		assertStartUpFails("modelgate.idempotency.encryption.keys.k1 is 16 bytes long: an AES-256 key is 32 random "
				+ "bytes in base64", shortKey, "modelgate.idempotency.encryption.active-key-id=k1",
				"modelgate.idempotency.encryption.keys.k1=" + shortKey);
	}

	@Test
	void aKeyThatIsNotBase64FailsStartUpNamingItsIdNotItsValue() {
		assertStartUpFails("modelgate.idempotency.encryption.keys.k1 is not base64", "not*base64!secret",
				"modelgate.idempotency.encryption.active-key-id=k1",
				"modelgate.idempotency.encryption.keys.k1=not*base64!secret");
	}

	@Test
	void keysWithoutAnActiveKeyIdFailStartUp() {
		assertStartUpFails("modelgate.idempotency.encryption.active-key-id must name the key that encrypts new "
				+ "records, one of modelgate.idempotency.encryption.keys (given: k1)", KEY_1,
				"modelgate.idempotency.encryption.keys.k1=" + KEY_1);
	}

	@Test
	void anActiveKeyIdThatNamesNoKeyFailsStartUp() {
		assertStartUpFails("modelgate.idempotency.encryption.active-key-id must be one of the ids of "
				+ "modelgate.idempotency.encryption.keys (k1)", KEY_1, "modelgate.idempotency.encryption.active-key-id=k9",
				"modelgate.idempotency.encryption.keys.k1=" + KEY_1);
		assertStartUpFails("modelgate.idempotency.encryption.active-key-id names a key, but "
				+ "modelgate.idempotency.encryption.keys gives none", KEY_1,
				"modelgate.idempotency.encryption.active-key-id=k9");
	}

	private void assertStartUpFails(String message, String secret, String... properties) {
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			BindValidationException validation = findCause(failure);
			assertThat(validation).as("a BindValidationException in %s", failure).isNotNull();
			FailureAnalysis analysis = new InvalidIdempotencySettingsFailureAnalyzer().analyze(failure);
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains(message).doesNotContain(secret);
		});
	}

	private static BindValidationException findCause(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof BindValidationException validation) {
				return validation;
			}
		}
		return null;
	}

	/** Records an answer through the coordinator, as every caller does, and reads what the store holds. */
	private static String recordAndReadRaw(AssertableApplicationContext context) {
		IdempotencyCoordinator coordinator = context.getBean(IdempotencyCoordinator.class);
		IdempotencyCoordinator.Attempt attempt = coordinator.begin("scope-1", "fp", Duration.ofSeconds(30),
				Duration.ZERO);
		assertThat(attempt.result()).isEqualTo(BeginResult.acquired());
		assertThat(attempt.lease()
			.complete(new StoredOutcome(StoredOutcome.Kind.VALUE, MARKER.getBytes(StandardCharsets.UTF_8)),
					Duration.ofMinutes(1)))
			.isTrue();
		StoredOutcome raw = context.getBean(InMemoryIdempotencyStore.class)
			.begin("scope-1", "fp", "raw", Duration.ofSeconds(30))
			.stored();
		return new String(raw.payload(), StandardCharsets.ISO_8859_1);
	}

	private static String replay(AssertableApplicationContext context) {
		StoredOutcome replayed = context.getBean(IdempotencyCoordinator.class)
			.begin("scope-1", "fp", Duration.ofSeconds(30), Duration.ZERO)
			.result()
			.stored();
		return new String(replayed.payload(), StandardCharsets.UTF_8);
	}

	private static String base64Key(int seed) {
		byte[] key = new byte[32];
		for (int i = 0; i < key.length; i++) {
			key[i] = (byte) (seed + 7 * i);
		}
		return Base64.getEncoder().encodeToString(key);
	}

}
