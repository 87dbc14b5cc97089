package dev.modelgate.reliability;

import java.util.UUID;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.SampleApp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample gateway's jar, processed ahead of time at build time, started with
 * {@code -Dspring.aot.enabled=true} (the generated bean definitions instead of the auto-configuration
 * conditions): it starts and replays. AOT freezes what the build saw, so this runs the default
 * configuration (memory store, mock provider); the choice of store is made at build time in AOT mode.
 */
@Tag("process")
class AotSampleAppTests {

	@Test
	void aotProcessedGatewayStartsAndReplaysARetry() {
		try (SampleApp gateway = SampleApp.builder("aot", "gateway").aot().start()) {
			Gateway client = new Gateway();
			String key = UUID.randomUUID().toString();
			String body = ChatRequests.request(ChatRequests.newTag("aot"));

			Answer first = client.send(gateway, key, body);
			Answer retry = client.send(gateway, key, body);

			assertThat(first.status()).as(first.toString()).isEqualTo(200);
			assertThat(first.isReplay()).isFalse();
			assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
			assertThat(retry.isReplay()).isTrue();
			assertThat(retry.sameBody(first)).isTrue();
		}
	}

}
