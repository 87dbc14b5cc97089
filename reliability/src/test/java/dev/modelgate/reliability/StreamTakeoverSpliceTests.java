package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.PostgresServer;
import dev.modelgate.reliability.support.RedisServer;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Sleep;
import dev.modelgate.reliability.support.StoreServer;
import dev.modelgate.reliability.support.StreamingCall;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 8, the follower that does not ask the store between the kill and the takeover. The
 * generating gateway is killed after event 3; its follower on B asks the store only every 3s
 * ({@code stream.poll-interval}), so that its next read comes after the lease ran out and a retry on
 * A took the key over and began a new stream. The follower must not carry on with the new stream's
 * events after the old one's: the new stream is another generation, and its events 4, 5... are not
 * the continuation of the 1, 2, 3 it has.
 */
@Tag("process")
class StreamTakeoverSpliceTests {

	private static final Pattern CHUNK_ID = Pattern.compile("\"id\":\"(chatcmpl-stub-\\d+)\"");

	private static final Duration WAIT = Duration.ofSeconds(60);

	@Test
	void redis() {
		followerNeverContinuesWithATakeoversStream(RedisServer.start("stream-splice-redis"), "stream-splice-redis");
	}

	@Test
	void postgresql() {
		followerNeverContinuesWithATakeoversStream(PostgresServer.start("stream-splice-postgresql"),
				"stream-splice-postgresql");
	}

	private void followerNeverContinuesWithATakeoversStream(StoreServer store, String scenario) {
		try (CountingUpstream upstream = CountingUpstream.start(); store) {
			upstream.streamChunks(30, Duration.ofMillis(200));
			List<SampleApp> apps = SampleApp.startAll(List.of(gateway(scenario, "gateway-a", store, upstream, "100ms"),
					gateway(scenario, "gateway-b", store, upstream, "3s"),
					gateway(scenario, "victim", store, upstream, "100ms")));
			try {
				new Gateway(Duration.ofSeconds(30)).warmUp(apps);
				String tag = ChatRequests.newTag("stream-splice");
				String body = ChatRequests.streamRequest(tag);
				StreamingCall generator = StreamingCall.start(apps.get(2), tag, body).awaitEvent(3, WAIT);
				StreamingCall follower = StreamingCall.start(apps.get(1), tag, body).awaitEvent(3, WAIT);
				apps.get(2).kill();
				generator.awaitEnd(WAIT);
				List<String> retries = new ArrayList<>();
				StreamingCall served = null;
				long deadline = System.nanoTime() + WAIT.toNanos();
				while (served == null && System.nanoTime() < deadline) {
					StreamingCall retry = StreamingCall.start(apps.get(0), tag, body);
					retry.awaitText((text) -> !text.isEmpty() || retry.isDone(), "an answer", WAIT);
					if (retry.status() == 200 && !retry.isReplay()) {
						served = retry;
					}
					else {
						retries.add(retry.awaitEnd(WAIT).toString());
						Sleep.millis(50);
					}
				}
				assertThat(served).as("a retry after the lease generated: %s", retries).isNotNull();
				follower.awaitEnd(WAIT);
				served.awaitEnd(WAIT);
				assertThat(upstream.calls(tag)).isEqualTo(2);
				assertThat(chunkIds(follower.text())).as("the upstream calls in the follower's stream: %s", follower)
					.hasSize(1);
				List<String> events = follower.events();
				assertThat(events.get(events.size() - 1)).startsWith("event: error\n")
					.contains("idempotency_stream_interrupted");

				// A client that reconnects itself, naming the killed attempt's third event, is not resumed
				// with the new attempt's events from 4: the id names the attempt as well as the place.
				String third = generator.events().get(2);
				String thirdId = third.substring("id: ".length(), third.indexOf('\n'));
				StreamingCall resumed = StreamingCall.start(apps.get(1), tag, body, "Last-Event-ID", thirdId)
					.awaitEnd(WAIT);
				assertThat(resumed.status()).isEqualTo(200);
				assertThat(chunkIds(resumed.text())).as("chunks of the new attempt in the resumed stream: %s", resumed)
					.isEmpty();
				assertThat(resumed.events()).singleElement(InstanceOfAssertFactories.STRING)
					.startsWith("event: error\n")
					.contains("idempotency_stream_interrupted");
				assertThat(upstream.calls(tag)).isEqualTo(2);
			}
			finally {
				apps.forEach(SampleApp::close);
			}
		}
	}

	private static Set<String> chunkIds(String text) {
		Set<String> ids = new TreeSet<>();
		Matcher matcher = CHUNK_ID.matcher(text);
		while (matcher.find()) {
			ids.add(matcher.group(1));
		}
		return ids;
	}

	private static SampleApp.Builder gateway(String scenario, String name, StoreServer store, CountingUpstream upstream,
			String pollInterval) {
		return SampleApp.builder(scenario, name)
			.store(store)
			.upstream(upstream)
			.property("modelgate.idempotency.lease-ttl", "2000ms")
			.property("modelgate.idempotency.stream.poll-interval", pollInterval);
	}

}
