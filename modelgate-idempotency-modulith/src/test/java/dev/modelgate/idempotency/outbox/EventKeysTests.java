package dev.modelgate.idempotency.outbox;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class EventKeysTests {

	@Test
	void sameScopeAndNameGiveTheSameKeyWhateverTheAttempt() {
		String first;
		try (IdempotencyContext.Binding binding = IdempotencyContext.bind(new IdempotencyContext.Held("scope-1", "token-a"))) {
			first = EventKeys.derive("welcome-mail");
		}
		// A takeover re-runs the work under another token: the key depends on the scope only.
		try (IdempotencyContext.Binding binding = IdempotencyContext.bind(new IdempotencyContext.Held("scope-1", "token-b"))) {
			assertThat(EventKeys.derive("welcome-mail")).isEqualTo(first);
		}
		assertThat(first).isEqualTo(DerivedKeys.uuid("scope-1", "event", "welcome-mail"));
	}

	@Test
	void otherScopesOtherNamesAndOutgoingCallsGetOtherKeys() {
		String key = EventKeys.derive("scope-1", "welcome-mail");

		assertThat(EventKeys.derive("scope-2", "welcome-mail")).isNotEqualTo(key);
		assertThat(EventKeys.derive("scope-1", "invoice-mail")).isNotEqualTo(key);
		assertThat(DerivedKeys.uuid("scope-1", "call", "welcome-mail")).isNotEqualTo(key);
	}

	@Test
	void refusesToDeriveOutsideAKeyedRun() {
		assertThatIllegalStateException().isThrownBy(() -> EventKeys.derive("welcome-mail"))
			.withMessageContaining("No keyed request or idempotent operation");
	}

	@Test
	void refusesAnEmptyName() {
		assertThatIllegalArgumentException().isThrownBy(() -> EventKeys.derive("scope-1", ""));
	}

	@Test
	void headersCarryTheKeyUnderTheNameListenersReadByDefault() {
		IdempotentEvent event = () -> "k-1";

		assertThat(IdempotentEventHeaders.of(event)).isEqualTo(Map.of("Idempotency-Key", "k-1"));
	}

}
