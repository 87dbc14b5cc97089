package dev.modelgate.idempotency.core;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DerivedKeysTests {

	@Test
	void derivationIsFixedAcrossVersionsAndProcesses() {
		// Recomputed independently: printf 'K\0\0\0\x05run-1\0\0\0\x012\0\0\0\x0asend_email' | sha256sum
		assertThat(DerivedKeys.hex("run-1", "2", "send_email"))
			.isEqualTo("91659d5a236c2de330aa238d5ed613e20e26f6495699fe6a4cc841afd6bb66db");
	}

	@Test
	void toolKeyIsAVersion8UuidOfTheSameDigest() {
		String key = DerivedKeys.forTool("run-1", "2", "send_email");
		String hex = DerivedKeys.hex("run-1", "2", "send_email");
		UUID uuid = UUID.fromString(key);

		assertThat(key).matches("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
		assertThat(uuid.version()).isEqualTo(8);
		assertThat(uuid.variant()).isEqualTo(2);
		assertThat(key.replace("-", "").substring(0, 12)).isEqualTo(hex.substring(0, 12));
		assertThat(key.replace("-", "").substring(20)).isEqualTo(hex.substring(20, 32));
	}

	@Test
	void sameInputsGiveTheSameKeyOnEveryCall() {
		assertThat(DerivedKeys.forTool("run-1", "2", "send_email"))
			.isEqualTo(DerivedKeys.forTool("run-1", "2", "send_email"));
	}

	@Test
	void everyPartChangesTheKey() {
		String key = DerivedKeys.forTool("run-1", "2", "send_email");

		assertThat(DerivedKeys.forTool("run-2", "2", "send_email")).isNotEqualTo(key);
		assertThat(DerivedKeys.forTool("run-1", "3", "send_email")).isNotEqualTo(key);
		assertThat(DerivedKeys.forTool("run-1", "2", "create_ticket")).isNotEqualTo(key);
	}

	@Test
	void partBoundariesCount() {
		assertThat(DerivedKeys.hex("ab", "c")).isNotEqualTo(DerivedKeys.hex("a", "bc"));
		assertThat(DerivedKeys.hex("a", "")).isNotEqualTo(DerivedKeys.hex("a"));
	}

	@Test
	void derivedKeyDoesNotRevealTheRunKey() {
		assertThat(DerivedKeys.hex("secret-run-key", "1")).doesNotContain("secret");
	}

	@Test
	void refusesNoPartsOrNullParts() {
		assertThatIllegalArgumentException().isThrownBy(DerivedKeys::hex);
		assertThatIllegalArgumentException().isThrownBy(() -> DerivedKeys.uuid("run", null));
	}

}
