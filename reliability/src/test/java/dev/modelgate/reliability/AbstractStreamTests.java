package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.ChatRequests;
import dev.modelgate.reliability.support.CountingUpstream;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Settings;
import dev.modelgate.reliability.support.Sleep;
import dev.modelgate.reliability.support.StoreServer;
import dev.modelgate.reliability.support.StreamingCall;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scenario 8, keyed streams (Server-Sent Events) across gateways. Gateways sharing one store relay
 * the {@link CountingUpstream}'s slow {@code "stream": true} answer: a duplicate sent to another
 * gateway while the first streams gets the same event bytes, ids included, to the end, from one
 * upstream call, and {@code Last-Event-ID} resumes exactly after the event it names. Then the
 * generating gateway is killed with SIGKILL mid-stream: its follower on the other gateway ends with
 * a terminal {@code event: error} once the lease runs out (it never hangs), a retry after the lease
 * generates again, and a further retry replays. Subclasses say which store.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractStreamTests {

	/** Short, so that the killed holder's stream expires quickly; heartbeats renew it every third. */
	static final Duration LEASE = Duration.ofSeconds(2);

	/** Generous: a busy machine is slow, and nothing here measures time. */
	static final Duration WAIT = Duration.ofSeconds(60);

	private final List<String> rows = new ArrayList<>();

	private CountingUpstream upstream;

	private StoreServer store;

	private SampleApp first;

	private SampleApp second;

	private SampleApp victim;

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	@BeforeAll
	void startGateways() {
		this.upstream = CountingUpstream.start();
		this.store = startStore(scenario());
		List<SampleApp> apps = SampleApp.startAll(List.of(gateway("gateway-a"), gateway("gateway-b"),
				gateway("victim")));
		this.first = apps.get(0);
		this.second = apps.get(1);
		this.victim = apps.get(2);
		new Gateway(Duration.ofSeconds(30)).warmUp(apps);
	}

	private SampleApp.Builder gateway(String name) {
		return SampleApp.builder(scenario(), name)
			.store(this.store)
			.upstream(this.upstream)
			.property("modelgate.idempotency.lease-ttl", LEASE.toMillis() + "ms");
	}

	@AfterAll
	void reportAndStop() {
		if (!this.rows.isEmpty()) {
			Report.write(scenario(), """
					Gateways on one %s store, lease %s (renewed every third); the upstream streams its chunks
					with a pause before each, then `data: [DONE]`.

					| run | what | upstream calls | result |
					|---|---|---|---|
					""".formatted(this.store.name(), LEASE) + String.join("\n", this.rows));
		}
		for (SampleApp app : new SampleApp[] { this.first, this.second, this.victim }) {
			if (app != null) {
				app.close();
			}
		}
		if (this.store != null) {
			this.store.close();
		}
		if (this.upstream != null) {
			this.upstream.close();
		}
	}

	@Test
	void duplicateOnAnotherGatewayFollowsTheSameEventsAndLastEventIdResumes() {
		this.upstream.streamChunks(8, Duration.ofMillis(200));
		for (int run = 1; run <= Settings.streamRuns(); run++) {
			String tag = ChatRequests.newTag("stream-attach");
			String body = ChatRequests.streamRequest(tag);
			StreamingCall generator = StreamingCall.start(this.first, tag, body);
			generator.awaitEvent(2, WAIT);
			StreamingCall follower = StreamingCall.start(this.second, tag, body);
			StreamingCall liveResume = StreamingCall.start(this.second, tag, body, "Last-Event-ID", "2");
			generator.awaitEnd(WAIT);
			follower.awaitEnd(WAIT);
			liveResume.awaitEnd(WAIT);
			StreamingCall recordedResume = StreamingCall.start(this.second, tag, body, "Last-Event-ID", "5")
				.awaitEnd(WAIT);

			assertThat(generator.failure()).isNull();
			assertThat(generator.status()).isEqualTo(200);
			assertThat(generator.isReplay()).isFalse();
			assertThat(generator.endsWithDone()).as("%s", generator).isTrue();
			List<String> events = generator.events();
			for (int i = 0; i < events.size(); i++) {
				assertThat(events.get(i)).startsWith("id: " + (i + 1) + ".");
			}
			assertThat(follower.failure()).isNull();
			assertThat(follower.status()).isEqualTo(200);
			assertThat(follower.isReplay()).isTrue();
			assertThat(follower.text()).as("the follower's events, ids included").isEqualTo(generator.text());
			assertThat(liveResume.isReplay()).isTrue();
			assertThat(liveResume.text()).isEqualTo(String.join("", events.subList(2, events.size())));
			assertThat(recordedResume.status()).isEqualTo(200);
			assertThat(recordedResume.isReplay()).isTrue();
			assertThat(recordedResume.text()).isEqualTo(String.join("", events.subList(5, events.size())));
			int calls = this.upstream.calls(tag);
			assertThat(calls).isEqualTo(1);
			this.rows.add("| %d | stream on A; on B while it streams: a duplicate, a `Last-Event-ID: 2`; after its end a `Last-Event-ID: 5` | %d | %d events on A; B's duplicate the same %d bytes, replayed; the resumes exactly events 3-%d and 6-%d |"
				.formatted(run, calls, events.size(), generator.bytes().length, events.size(), events.size()));
		}
	}

	@Test
	void killOfTheGeneratingGatewayEndsItsFollowersAndARetryAfterTheLeaseGeneratesAgain() {
		this.upstream.streamChunks(30, Duration.ofMillis(200));
		String tag = ChatRequests.newTag("stream-kill");
		String body = ChatRequests.streamRequest(tag);
		StreamingCall generator = StreamingCall.start(this.victim, tag, body);
		generator.awaitEvent(3, WAIT);
		StreamingCall follower = StreamingCall.start(this.second, tag, body);
		follower.awaitEvent(3, WAIT);
		long killedAt = System.nanoTime();
		this.victim.kill();
		generator.awaitEnd(WAIT);
		// While the lease lasts: a retry is a follower of what was recorded (or a 409).
		StreamingCall duringLease = StreamingCall.start(this.second, tag, body).awaitEnd(WAIT);
		follower.awaitEnd(LEASE.plus(WAIT));
		Duration followerEnded = follower.endedAfter(killedAt);

		assertThat(generator.endsWithDone()).as("the killed gateway's client did not get the end").isFalse();
		assertThat(follower.failure()).isNull();
		assertThat(follower.status()).isEqualTo(200);
		assertThat(follower.isReplay()).isTrue();
		assertThat(follower.text()).startsWith(generator.text().substring(0, generator.text().lastIndexOf("\n\n") + 2));
		assertThat(lastEvent(follower)).startsWith("event: error\n").contains("idempotency_stream_interrupted");
		assertThat(duringLease.status()).isIn(200, 409);
		if (duringLease.status() == 200) {
			assertThat(duringLease.isReplay()).isTrue();
			assertThat(lastEvent(duringLease)).startsWith("event: error\n").contains("idempotency_stream_interrupted");
		}
		assertThat(this.upstream.calls(tag)).isEqualTo(1);

		List<String> retries = new ArrayList<>();
		StreamingCall served = null;
		long deadline = System.nanoTime() + LEASE.plus(WAIT).toNanos();
		while (served == null && System.nanoTime() < deadline) {
			StreamingCall retry = StreamingCall.start(this.second, tag, body).awaitEnd(WAIT);
			retries.add(brief(retry));
			if (retry.status() == 200 && !retry.isReplay()) {
				served = retry;
			}
			else {
				Sleep.millis(200);
			}
		}
		assertThat(served).as("a retry after the lease generated: %s", retries).isNotNull();
		assertThat(served.failure()).isNull();
		assertThat(served.endsWithDone()).isTrue();
		assertThat(this.upstream.calls(tag)).isEqualTo(2);
		StreamingCall replay = StreamingCall.start(this.first, tag, body).awaitEnd(WAIT);
		assertThat(replay.status()).isEqualTo(200);
		assertThat(replay.isReplay()).isTrue();
		assertThat(replay.text()).isEqualTo(served.text());
		int calls = this.upstream.calls(tag);
		assertThat(calls).isEqualTo(2);

		this.rows.add(("| kill | stream on the victim, a follower on B, `kill -9` of the victim after event 3 | %d "
				+ "| the victim's client: %s after %d events; B's follower: %d events then `%s` %d ms after the kill; "
				+ "a retry at once: %s; after the lease: %s; then %s, the same bytes |").formatted(calls,
						(generator.failure() != null) ? "connection broken" : "closed without `[DONE]`",
						generator.events().size(), follower.events().size() - 1, errorCode(lastEvent(follower)),
						followerEnded.toMillis(), brief(duringLease), String.join(", ", retries), brief(replay)));
	}

	private static String lastEvent(StreamingCall call) {
		List<String> events = call.events();
		return events.isEmpty() ? "" : events.get(events.size() - 1);
	}

	private static String errorCode(String event) {
		int at = event.indexOf("\"code\":\"");
		return (at < 0) ? event.strip() : "event: error " + event.substring(at + 8, event.indexOf('"', at + 8));
	}

	private static String brief(StreamingCall call) {
		if (call.status() != 200) {
			return String.valueOf(call.status());
		}
		String last = lastEvent(call);
		String ending = last.startsWith("event: error") ? errorCode(last) : call.endsWithDone() ? "[DONE]" : "cut";
		return "200" + (call.isReplay() ? " replayed" : " generated") + " (" + (call.events().size()) + " events, "
				+ ending + ")";
	}

}
