package dev.modelgate.idempotency.web.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LastEventIdTests {

	@Test
	void idOfOursNamesThePlaceAndTheAttempt() {
		LastEventId id = LastEventId.parse(" 7.Ab-Cd_12 ");

		assertThat(id).isEqualTo(new LastEventId(7, "Ab-Cd_12"));
		assertThat(id.isOf("Ab-Cd_12")).isTrue();
		assertThat(id.isOf("Zz-Cd_12")).isFalse();
	}

	@Test
	void bareNumberNamesAPlaceOfWhicheverAttempt() {
		LastEventId id = LastEventId.parse("7");

		assertThat(id).isEqualTo(new LastEventId(7, null));
		assertThat(id.isOf("anything")).isTrue();
	}

	@Test
	void anythingElseIsNoPlaceAtAll() {
		assertThat(LastEventId.parse(null)).isEqualTo(LastEventId.NONE);
		assertThat(LastEventId.parse("-3")).isEqualTo(LastEventId.NONE);
		assertThat(LastEventId.parse("0.Ab-Cd_12")).isEqualTo(LastEventId.NONE);
		assertThat(LastEventId.parse("abc")).isEqualTo(LastEventId.NONE);
		assertThat(LastEventId.parse("x.Ab-Cd_12")).isEqualTo(LastEventId.NONE);
		assertThat(LastEventId.NONE.isOf("anything")).isTrue();
	}

	@Test
	void trailingDotNamesNoAttempt() {
		assertThat(LastEventId.parse("4.")).isEqualTo(new LastEventId(4, null));
	}

}
