package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.SpentKey;
import dev.modelgate.idempotency.core.StoredOutcome;
import dev.modelgate.idempotency.web.AmbiguousClientIdentityException;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.StreamSettings;
import dev.modelgate.idempotency.web.UnidentifiedClients;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The HTTP decision every web stack carries out: each step's action and what it reports. The
 * adapters' own tests (servlet, WebFlux, gateway) show that each carries the actions out.
 */
class HttpDecisionTests {

	private final List<IdempotencyDecision> decisions = new ArrayList<>();

	private final HttpDecision decision = decision(UnidentifiedClients.REJECT);

	private HttpDecision decision(UnidentifiedClients unidentified) {
		HttpDecision made = new HttpDecision(new KeyedRequestSettings("Idempotency-Key", 255, 1024, 1024,
				Duration.ofSeconds(2), 422, "Idempotent-Replayed", "Authorization", unidentified));
		made.setListeners(List.of(new IdempotencyListener() {

			@Override
			public void onDecision(IdempotencyDecision decision) {
				HttpDecisionTests.this.decisions.add(decision);
			}

		}));
		return made;
	}

	private static IdempotentEndpoint endpoint(boolean required, boolean attachToStream,
			Idempotent.StoreFailure onStoreFailure) {
		return new IdempotentEndpoint("/orders", "/orders", required, Duration.ofHours(1), Duration.ofSeconds(30),
				Duration.ZERO, List.of(), onStoreFailure, attachToStream);
	}

	private static IdempotentEndpoint endpoint() {
		return endpoint(false, false, Idempotent.StoreFailure.REJECT);
	}

	private List<IdempotencyOutcome> reported() {
		return this.decisions.stream().map(IdempotencyDecision::outcome).toList();
	}

	private RequestDecision keyed(HttpDecision decision, IdempotentEndpoint endpoint) {
		RequestDecision request = decision.start("POST", endpoint);
		assertThat(request.key(List.of("k-1"))).isNull();
		assertThat(request.identify("principal:alice")).isNull();
		request.scope();
		return request;
	}

	@Test
	void requestWithoutAKeyProceedsUnlessTheEndpointRequiresOne() {
		assertThat(this.decision.start("POST", endpoint()).key(List.of())).isSameAs(HttpAction.PROCEED);
		HttpAction refused = this.decision.start("POST", endpoint(true, false, Idempotent.StoreFailure.REJECT))
			.key(List.of());
		assertThat(refused).isInstanceOfSatisfying(HttpAction.Reject.class,
				(reject) -> assertThat(reject.problem().code()).isEqualTo("idempotency_key_missing"));
		assertThat(reported()).containsExactly(IdempotencyOutcome.BYPASSED, IdempotencyOutcome.MISSING_KEY);
	}

	@Test
	void invalidKeyIsRefusedWith400() {
		HttpAction action = this.decision.start("POST", endpoint()).key(List.of("a", "b"));
		assertThat(action).isInstanceOfSatisfying(HttpAction.Reject.class,
				(reject) -> assertThat(reject.problem().status()).isEqualTo(400));
		assertThat(reported()).containsExactly(IdempotencyOutcome.INVALID_KEY);
	}

	@Test
	void unidentifiedClientIsRefusedSkippedOrSharedAsThePolicySays() {
		RequestDecision rejected = this.decision.start("POST", endpoint());
		rejected.key(List.of("k"));
		assertThat(rejected.identify(null)).isInstanceOf(HttpAction.Reject.class);
		RequestDecision skipped = decision(UnidentifiedClients.SKIP).start("POST", endpoint());
		skipped.key(List.of("k"));
		assertThat(skipped.identify(null)).isSameAs(HttpAction.PROCEED);
		RequestDecision shared = decision(UnidentifiedClients.SHARE).start("POST", endpoint());
		shared.key(List.of("k"));
		assertThat(shared.identify(null)).isNull();
		shared.scope();
		assertThat(reported()).containsExactly(IdempotencyOutcome.UNIDENTIFIED, IdempotencyOutcome.UNIDENTIFIED_SKIPPED,
				IdempotencyOutcome.BYPASSED, IdempotencyOutcome.UNIDENTIFIED_SHARED);
	}

	@Test
	void ambiguousIdentityIsRefusedWith400NamingTheHeader() {
		RequestDecision request = this.decision.start("POST", endpoint());
		request.key(List.of("k"));
		assertThat(request.identityAmbiguous(new AmbiguousClientIdentityException("X-Tenant")))
			.isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
				assertThat(reject.problem().status()).isEqualTo(400);
				assertThat(reject.problem().code()).isEqualTo("idempotency_client_ambiguous");
				assertThat(reject.problem().detail()).contains("X-Tenant");
			});
		assertThat(reported()).containsExactly(IdempotencyOutcome.UNIDENTIFIED);
	}

	@Test
	void scopeIsKnownOnlyOnceKeyAndIdentityAreAndDependsOnTheClient() {
		RequestDecision early = this.decision.start("POST", endpoint());
		assertThatIllegalStateException().isThrownBy(early::scope);
		RequestDecision alice = keyed(this.decision, endpoint());
		RequestDecision bob = this.decision.start("POST", endpoint());
		bob.key(List.of("k-1"));
		bob.identify("principal:bob");
		assertThat(alice.scope()).hasSize(64).isNotEqualTo(bob.scope());
	}

	@Test
	void eachAnswerOfTheStoreBecomesItsAction() {
		IdempotentEndpoint endpoint = endpoint();
		assertThat(keyed(this.decision, endpoint).began(BeginResult.acquired(), false)).isSameAs(HttpAction.RUN);
		assertThat(keyed(this.decision, endpoint).began(BeginResult.mismatch(), false))
			.isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(422));
		assertThat(keyed(this.decision, endpoint).began(
				BeginResult.spent(new SpentKey("201", Instant.parse("2026-12-05T08:00:00Z"), "/orders/1")), false))
			.isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
				assertThat(reject.problem().status()).isEqualTo(410);
				assertThat(reject.problem().code()).isEqualTo("idempotency_key_spent");
				assertThat(reject.problem().extensions()).containsExactly(entry("original_status", 201),
						entry("completed_at", "2026-12-05T08:00:00Z"), entry("resource", "/orders/1"));
			});
		assertThat(keyed(this.decision, endpoint).began(BeginResult.inProgress(), true))
			.isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
				assertThat(reject.problem().status()).isEqualTo(409);
				assertThat(reject.problem().retryAfter()).isEqualTo(Duration.ofSeconds(2));
			});
		StoredOutcome response = HttpResponseRecord.encode(201, Map.of("Location", List.of("/orders/1")),
				"{}".getBytes(StandardCharsets.UTF_8), 2);
		assertThat(keyed(this.decision, endpoint).began(BeginResult.completed(response), false))
			.isInstanceOfSatisfying(HttpAction.Replay.class, (replay) -> {
				assertThat(replay.response().status()).isEqualTo(201);
				assertThat(replay.response().headers()).containsEntry("Location", List.of("/orders/1"));
			});
		assertThat(keyed(this.decision, endpoint).began(BeginResult.completed(null), false))
			.isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(410));
		assertThat(keyed(this.decision, endpoint)
			.began(BeginResult.completed(StoredOutcome.empty(StoredOutcome.Kind.STREAM)), false))
			.isSameAs(HttpAction.REPLAY_STREAM);
		assertThat(reported()).containsExactly(IdempotencyOutcome.ACQUIRED, IdempotencyOutcome.MISMATCH,
				IdempotencyOutcome.SPENT, IdempotencyOutcome.WAITED, IdempotencyOutcome.IN_PROGRESS, IdempotencyOutcome.REPLAYED,
				IdempotencyOutcome.RESULT_UNAVAILABLE);
	}

	@Test
	void recordNoAdapterCanReadIsA503NotAReplay() {
		StoredOutcome garbage = new StoredOutcome(StoredOutcome.Kind.VALUE, new byte[] { 9, 9 });
		assertThat(keyed(this.decision, endpoint()).began(BeginResult.completed(garbage), false))
			.isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(503));
		assertThat(reported()).containsExactly(IdempotencyOutcome.STORE_UNAVAILABLE);
	}

	@Test
	void duplicateOfARunningStreamAttachesOrIsRefused() {
		IdempotentEndpoint streaming = endpoint(false, true, Idempotent.StoreFailure.REJECT);
		RequestDecision duplicate = keyed(this.decision, streaming);
		assertThat(duplicate.began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
		duplicate.attached(3);
		assertThat(this.decision.followers(duplicate.scope())).isOne();
		duplicate.unfollow();
		duplicate.unfollow();
		assertThat(this.decision.followers(duplicate.scope())).isZero();
		RequestDecision unreadable = keyed(this.decision, streaming);
		unreadable.began(BeginResult.inProgress(), false);
		assertThat(unreadable.attachFailed(new IdempotencyStoreException("down"))).isInstanceOf(HttpAction.Reject.class);
		assertThat(this.decision.followers(unreadable.scope())).as("a refused follower leaves").isZero();
		assertThat(keyed(this.decision, endpoint()).began(BeginResult.inProgress(), false))
			.as("an endpoint that does not attach")
			.isInstanceOf(HttpAction.Reject.class);
		assertThat(reported()).containsExactly(IdempotencyOutcome.STREAM_RESUMED, IdempotencyOutcome.ATTACHED,
				IdempotencyOutcome.IN_PROGRESS, IdempotencyOutcome.IN_PROGRESS);
	}

	@Test
	void followerCapRefusesTheDuplicateBeyondItAndFreesItsPlaceWhenOneLeaves() {
		this.decision.setStreamSettings(new StreamSettings(10, 1024, Duration.ofMinutes(1), Duration.ofMillis(100),
				Duration.ofSeconds(30), 2));
		IdempotentEndpoint streaming = endpoint(false, true, Idempotent.StoreFailure.REJECT);
		RequestDecision first = keyed(this.decision, streaming);
		RequestDecision second = keyed(this.decision, streaming);
		assertThat(first.began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
		assertThat(second.began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
		assertThat(keyed(this.decision, streaming).began(BeginResult.inProgress(), false))
			.isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(409));
		first.unfollow();
		assertThat(keyed(this.decision, streaming).began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
	}

	/**
	 * The whole path of a duplicate that finds no stream yet, as every stack walks it: each row is
	 * what the request accepts and how long it may wait, and what it is answered at each step.
	 */
	@ParameterizedTest(name = "{0}")
	@MethodSource("headWaits")
	void duplicateThatFindsNoStreamYetAsksAgainOnlyWhenItAcceptsAStreamAndOnlyUntilHeadWait(String row,
			@Nullable String accept, Duration headWait, boolean asksAgain) {
		this.decision.setStreamSettings(new StreamSettings(10, 1024, Duration.ofMinutes(1), Duration.ofMillis(100),
				headWait));
		IdempotentEndpoint streaming = new IdempotentEndpoint("/orders", "/orders", false, Duration.ofHours(1),
				Duration.ofSeconds(30), Duration.ofSeconds(5), List.of(), Idempotent.StoreFailure.REJECT, true);
		RequestDecision duplicate = keyed(this.decision, streaming);
		assertThat(duplicate.waitTimeout()).isEqualTo(Duration.ofSeconds(5));
		assertThat(duplicate.began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
		HttpAction next = duplicate.notFollowed(accept);
		assertThat(this.decision.followers(duplicate.scope())).as("it no longer follows").isZero();
		if (!asksAgain) {
			assertThat(next).isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(409));
			assertThat(reported()).containsExactly(IdempotencyOutcome.IN_PROGRESS);
			return;
		}
		assertThat(next).isEqualTo(new HttpAction.AskAgain(Duration.ofMillis(100)));
		assertThat(duplicate.waitTimeout()).as("begin again without the endpoint's wait").isZero();
		assertThat(duplicate.began(BeginResult.inProgress(), false)).isSameAs(HttpAction.ATTACH);
		assertThat(duplicate.notFollowed(accept)).isInstanceOf(HttpAction.AskAgain.class);
		assertThat(duplicate.began(BeginResult.acquired(), false)).as("the running request released its key")
			.isSameAs(HttpAction.RUN);
		assertThat(reported()).as("one WAITED for the one that waits, however often it asks")
			.containsExactly(IdempotencyOutcome.WAITED, IdempotencyOutcome.ACQUIRED);
	}

	static Stream<Arguments> headWaits() {
		return Stream.of(Arguments.of("JSON client", "application/json", Duration.ofSeconds(30), false),
				Arguments.of("no Accept", null, Duration.ofSeconds(30), false),
				Arguments.of("stream client", "text/html, TEXT/EVENT-STREAM", Duration.ofSeconds(30), true),
				Arguments.of("stream client, head-wait 0", "text/event-stream", Duration.ZERO, false));
	}

	@Test
	void duplicateWaitingForAStreamIsRefusedOnceHeadWaitRunsOut() {
		this.decision.setStreamSettings(new StreamSettings(10, 1024, Duration.ofMinutes(1), Duration.ofMillis(100),
				Duration.ofNanos(1)));
		RequestDecision duplicate = keyed(this.decision, endpoint(false, true, Idempotent.StoreFailure.REJECT));
		duplicate.began(BeginResult.inProgress(), false);
		assertThat(duplicate.notFollowed("text/event-stream")).isEqualTo(new HttpAction.AskAgain(Duration.ofNanos(1)));
		HttpAction next = HttpAction.ATTACH;
		for (int asked = 0; asked < 1_000_000 && !(next instanceof HttpAction.Reject); asked++) {
			duplicate.began(BeginResult.inProgress(), false);
			next = duplicate.notFollowed("text/event-stream");
		}
		assertThat(next).isInstanceOf(HttpAction.Reject.class);
	}

	@Test
	void recordedStreamIsReplayedOrGoneOrUnreadable() {
		assertThat(keyed(this.decision, endpoint()).streamFollowed(true, 0)).isNull();
		assertThat(keyed(this.decision, endpoint()).streamFollowed(false, 0)).isInstanceOf(HttpAction.Reject.class);
		assertThat(keyed(this.decision, endpoint()).streamUnreadable(new IdempotencyStoreException("down")))
			.isInstanceOfSatisfying(HttpAction.Reject.class,
					(reject) -> assertThat(reject.problem().status()).isEqualTo(503));
		assertThat(reported()).containsExactly(IdempotencyOutcome.STREAM_REPLAYED,
				IdempotencyOutcome.RESULT_UNAVAILABLE, IdempotencyOutcome.STORE_UNAVAILABLE);
	}

	@Test
	void storeFailureIsA503UnlessTheEndpointProceeds() {
		IdempotencyStoreException down = new IdempotencyStoreException("connection refused");
		assertThat(keyed(this.decision, endpoint()).storeFailed(down)).isInstanceOfSatisfying(HttpAction.Reject.class,
				(reject) -> assertThat(reject.problem().status()).isEqualTo(503));
		assertThat(keyed(this.decision, endpoint(false, false, Idempotent.StoreFailure.PROCEED)).storeFailed(down))
			.isSameAs(HttpAction.PROCEED);
		assertThat(reported()).containsExactly(IdempotencyOutcome.STORE_UNAVAILABLE,
				IdempotencyOutcome.STORE_UNAVAILABLE, IdempotencyOutcome.BYPASSED);
	}

	@Test
	void decisionsAfterTheScopeNameIt() {
		RequestDecision request = keyed(this.decision, endpoint());
		request.began(BeginResult.acquired(), false);
		assertThat(this.decisions).singleElement().satisfies((decision) -> {
			assertThat(decision.scope()).isEqualTo(request.scope());
			assertThat(decision.route()).isEqualTo("/orders");
			assertThat(decision.method()).isEqualTo("POST");
		});
	}

	@Test
	void canSkipOnlyAnUnkeyedRequestThatNothingFollows() {
		HttpDecision quiet = new HttpDecision(new KeyedRequestSettings("Idempotency-Key", 255, 1024, 1024,
				Duration.ofSeconds(1), 422));
		assertThat(quiet.canSkip(null)).isTrue();
		assertThat(quiet.canSkip("k")).isFalse();
		assertThat(this.decision.canSkip(null)).as("a listener follows").isFalse();
	}

	@Test
	void lastEventIdAndRetryAfterAreReadAndWrittenTheSameOnEveryStack() {
		assertThat(LastEventId.parse(" 7 ").sequence()).isEqualTo(7);
		assertThat(LastEventId.parse("-3").sequence()).isZero();
		assertThat(LastEventId.parse("abc").sequence()).isZero();
		assertThat(LastEventId.parse(null).sequence()).isZero();
		assertThat(HttpDecision.retryAfterSeconds(Duration.ofMillis(1500))).isEqualTo("2");
		assertThat(HttpDecision.retryAfterSeconds(Duration.ZERO)).isEqualTo("1");
	}

}
