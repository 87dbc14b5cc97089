package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SseEventsTests {

	@Test
	void eventEndsAtTheFirstBlankLineWithLineFeedsOrCarriageReturnLineFeeds() {
		byte[] lf = bytes("data:a\ndata:b\n\ndata:c\n\n");
		assertThat(SseEvents.endOfEvent(lf, 0, lf.length)).isEqualTo(15);
		assertThat(SseEvents.endOfEvent(lf, 15, lf.length)).isEqualTo(lf.length);
		byte[] crlf = bytes("data:a\r\n\r\n");
		assertThat(SseEvents.endOfEvent(crlf, 0, crlf.length)).isEqualTo(crlf.length);
	}

	@Test
	void incompleteEventHasNoEnd() {
		byte[] partial = bytes("data:a\ndata:b\n");
		assertThat(SseEvents.endOfEvent(partial, 0, partial.length)).isEqualTo(-1);
		assertThat(SseEvents.endOfEvent(new byte[0], 0, 0)).isEqualTo(-1);
	}

	@Test
	void sequenceAndAttemptBecomeTheFirstLineAndReplaceTheHandlersOwnId() {
		assertThat(text(SseEvents.withId(bytes("event:chunk\ndata:x\n\n"), 7, "Ab-Cd_12")))
			.isEqualTo("id: 7.Ab-Cd_12\nevent:chunk\ndata:x\n\n");
		assertThat(text(SseEvents.withId(bytes("id:abc\ndata:x\r\nid\n\n"), 3, "Ab-Cd_12")))
			.isEqualTo("id: 3.Ab-Cd_12\ndata:x\r\n\n");
	}

	@Test
	void fieldsThatOnlyStartWithIdAreKept() {
		assertThat(text(SseEvents.withId(bytes("identity:x\ndata:y\n\n"), 1, "Ab-Cd_12")))
			.isEqualTo("id: 1.Ab-Cd_12\nidentity:x\ndata:y\n\n");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

}
