package dev.modelgate.idempotency.web.internal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyKey;
import dev.modelgate.idempotency.core.IdempotencyListener;
import dev.modelgate.idempotency.core.BeginResult;
import dev.modelgate.idempotency.core.IdempotencyScope;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;
import dev.modelgate.idempotency.web.HttpResponseRecord;
import dev.modelgate.idempotency.web.IdempotentEndpoint;
import dev.modelgate.idempotency.web.KeyedRequestSettings;
import dev.modelgate.idempotency.web.UnidentifiedClients;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status resource's decision: the token, the 400s before the store is asked, and each answer of
 * the store (the memory store; the adapters' tests run every store over HTTP).
 */
class StatusLookupTests {

	private static final String FINGERPRINT = "a".repeat(64);

	private final List<String> outcomes = new ArrayList<>();

	private final HttpDecision http = new HttpDecision(new KeyedRequestSettings("Idempotency-Key", 255, 1024, 1024,
			Duration.ofSeconds(2), 422, "Idempotent-Replayed", "Authorization", UnidentifiedClients.REJECT));

	private final InMemoryIdempotencyStore store = new InMemoryIdempotencyStore();

	private final ScheduledExecutorService heartbeats = Executors.newSingleThreadScheduledExecutor();

	private final IdempotencyCoordinator coordinator = new IdempotencyCoordinator(this.store, this.heartbeats);

	StatusLookupTests() {
		this.http.setStatusPath("/idempotency-status");
		this.http.setListeners(List.of(new IdempotencyListener() {

			@Override
			public void onStatusLookup(String outcome) {
				StatusLookupTests.this.outcomes.add(outcome);
			}

		}));
	}

	@AfterEach
	void stopHeartbeats() {
		this.heartbeats.shutdownNow();
	}

	@Test
	void tokenNamesMethodScopeAndFingerprintInBase64urlWithoutPadding() {
		String token = new StatusToken("POST", "/orders/{id}", FINGERPRINT).encode();

		assertThat(token).matches("[A-Za-z0-9_-]+");
		assertThat(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8))
			.isEqualTo("POST\n/orders/{id}\n" + FINGERPRINT);
		assertThat(StatusToken.decode(token)).isEqualTo(new StatusToken("POST", "/orders/{id}", FINGERPRINT));
	}

	@ParameterizedTest
	@ValueSource(strings = { "not+base64/", "%%%", "UE9TVA", "UE9TVAovb3JkZXJzCnNob3J0" })
	void aTokenThisLibraryDidNotWriteIsRefusedWith400BeforeTheStoreIsAsked(String token) {
		StatusLookup lookup = resource().start("/idempotency-status/" + token, List.of("k-1"), null);

		assertThat(lookup.refusal()).isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
			assertThat(reject.problem().status()).isEqualTo(400);
			assertThat(reject.problem().code()).isEqualTo("idempotency_status_token_invalid");
		});
		assertThat(this.outcomes).containsExactly("invalid");
	}

	@Test
	void aTokenWithAnEmptyScopeOrAnotherFingerprintShapeIsRefused() {
		for (String text : List.of("POST\n\n" + FINGERPRINT, "POST\n/orders\nABC", "POST /x\n/orders\n" + FINGERPRINT,
				"POST\n/orders\n" + FINGERPRINT + "\nmore")) {
			String token = Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
			assertThat(resource().start("/idempotency-status/" + token, List.of("k-1"), null).refusal())
				.as(text)
				.isInstanceOf(HttpAction.Reject.class);
		}
	}

	@Test
	void aLookupWithoutKeyOrWithAnInvalidOneIsRefusedWith400() {
		String path = "/idempotency-status/" + new StatusToken("POST", "/orders", FINGERPRINT).encode();

		assertThat(((HttpAction.Reject) resource().start(path, List.of(), null).refusal()).problem().code())
			.isEqualTo("idempotency_key_missing");
		assertThat(((HttpAction.Reject) resource().start(path, List.of("a b"), null).refusal()).problem().code())
			.isEqualTo("idempotency_key_invalid");
	}

	@Test
	void onlyGetBelowThePathIsALookup() {
		StatusResource resource = resource();

		assertThat(resource.isLookup("GET", "/idempotency-status/abc")).isTrue();
		assertThat(resource.isLookup("POST", "/idempotency-status/abc")).isFalse();
		assertThat(resource.isLookup("GET", "/idempotency-status/")).isFalse();
		assertThat(resource.isLookup("GET", "/idempotency-statusabc")).isFalse();
	}

	@Test
	void anUnknownKeyIs404AndTheLookupLeavesNoRecord() {
		HttpAction answer = lookUp("principal:alice", "k-1");

		assertThat(answer).isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
			assertThat(reject.problem().status()).isEqualTo(404);
			assertThat(reject.problem().code()).isEqualTo("idempotency_key_unknown");
		});
		assertThat(this.store.find(scope("principal:alice", "k-1"))).isEmpty();
		assertThat(this.coordinator.getLeasesHeld()).isZero();
		assertThat(this.outcomes).containsExactly("unknown");
	}

	@Test
	void aRunningRequestIs202AndAnotherClientsLookupIsAnUnknownKey() {
		this.store.begin(scope("principal:alice", "k-1"), FINGERPRINT, "t-1", Duration.ofSeconds(30));

		assertThat(lookUp("principal:alice", "k-1")).isEqualTo(new HttpAction.Pending(Duration.ofSeconds(2)));
		HttpAction other = lookUp("principal:mallory", "k-1");
		HttpAction unknown = lookUp("principal:alice", "k-2");
		assertThat(other).isEqualTo(unknown);
		assertThat(this.outcomes).containsExactly("in_progress", "unknown", "unknown");
	}

	@Test
	void aCompletedRequestIsReplayedAndAnotherFingerprintIsAnUnknownKey() {
		String scope = scope("principal:alice", "k-1");
		this.store.begin(scope, FINGERPRINT, "t-1", Duration.ofSeconds(30));
		byte[] body = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);
		this.store.complete(scope, "t-1",
				HttpResponseRecord.encode(201, Map.of("Content-Type", List.of("application/json")), body, body.length),
				Duration.ofHours(1));

		HttpAction answer = lookUp("principal:alice", "k-1");
		StatusLookup otherRequest = resource().start(
				"/idempotency-status/" + new StatusToken("POST", "/orders", "b".repeat(64)).encode(), List.of("k-1"), null);
		otherRequest.identify("principal:alice");

		assertThat(answer).isInstanceOfSatisfying(HttpAction.Replay.class, (replay) -> {
			assertThat(replay.response().status()).isEqualTo(201);
			assertThat(new String(replay.response().payload(), replay.response().bodyOffset(),
					replay.response().bodyLength(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":1}");
		});
		assertThat(((HttpAction.Reject) otherRequest.lookUp(this.coordinator)).problem().status()).isEqualTo(404);
	}

	@Test
	void aRunningStreamIsFollowedByAClientThatAcceptsEventsAndACompletedOneIsReplayed() {
		String scope = scope("principal:alice", "k-1");
		this.store.begin(scope, FINGERPRINT, "t-1", Duration.ofSeconds(30));
		HttpAction.Pending pending = new HttpAction.Pending(Duration.ofSeconds(2));

		StatusLookup events = lookup("principal:alice", "k-1", "application/json, text/event-stream");
		HttpAction running = events.lookUp(this.coordinator);
		HttpAction json = lookUp("principal:alice", "k-1");
		HttpAction notBegun = events.notFollowed(running);
		this.store.openStream(scope, "t-1", new byte[] { 1 });
		this.store.completeStream(scope, "t-1", Duration.ofHours(1));
		StatusLookup completed = lookup("principal:alice", "k-1", null);
		HttpAction done = completed.lookUp(this.coordinator);
		completed.followed(done);
		HttpAction gone = completed.notFollowed(done);

		assertThat(running).isEqualTo(HttpAction.ATTACH);
		assertThat(json).isEqualTo(pending);
		assertThat(notBegun).isEqualTo(pending);
		assertThat(done).isEqualTo(HttpAction.REPLAY_STREAM);
		assertThat(((HttpAction.Reject) gone).problem().code()).isEqualTo("idempotency_result_unavailable");
		assertThat(this.outcomes).containsExactly("in_progress", "in_progress", "replayed", "result_unavailable");
	}

	@Test
	void aStoreThatCannotBeAskedIs503WithRetryAfter() {
		InMemoryIdempotencyStore down = new InMemoryIdempotencyStore() {

			@Override
			public BeginResult begin(String scope, String fingerprint, String token, Duration leaseTtl) {
				throw new IdempotencyStoreException("connection refused");
			}

		};
		StatusLookup lookup = lookup("principal:alice", "k-1", null);

		HttpAction answer = lookup.lookUp(new IdempotencyCoordinator(down, this.heartbeats));

		assertThat(answer).isInstanceOfSatisfying(HttpAction.Reject.class, (reject) -> {
			assertThat(reject.problem().status()).isEqualTo(503);
			assertThat(reject.problem().code()).isEqualTo("idempotency_store_unavailable");
			assertThat(reject.problem().retryAfter()).isEqualTo(Duration.ofSeconds(2));
		});
		assertThat(this.outcomes).containsExactly("store_unavailable");
	}

	@Test
	void aDuplicatesConflictCarriesTheLocationOfItsStatusOnlyWhenTheResourceIsOn() {
		IdempotentEndpoint endpoint = new IdempotentEndpoint("/orders", "/orders", false, Duration.ofHours(1),
				Duration.ofSeconds(30), Duration.ZERO, List.of(), Idempotent.StoreFailure.REJECT, false);
		RequestDecision duplicate = this.http.start("POST", endpoint);
		duplicate.key(List.of("k-1"));
		duplicate.identify("principal:alice");
		duplicate.fingerprinted(FINGERPRINT);

		HttpAction.Reject on = (HttpAction.Reject) duplicate.notAttached();
		this.http.setStatusPath(null);
		HttpAction.Reject off = (HttpAction.Reject) duplicate.notAttached();

		assertThat(on.location())
			.isEqualTo("/idempotency-status/" + new StatusToken("POST", "/orders", FINGERPRINT).encode());
		assertThat(off.location()).isNull();
	}

	private StatusResource resource() {
		StatusResource resource = this.http.statusResource();
		assertThat(resource).isNotNull();
		return resource;
	}

	private HttpAction lookUp(String identity, String key) {
		return lookup(identity, key, null).lookUp(this.coordinator);
	}

	private StatusLookup lookup(String identity, String key, String accept) {
		StatusLookup lookup = resource().start(
				"/idempotency-status/" + new StatusToken("POST", "/orders", FINGERPRINT).encode(), List.of(key), accept);
		assertThat(lookup.refusal()).isNull();
		assertThat(lookup.identify(identity)).isNull();
		return lookup;
	}

	private static String scope(String identity, String key) {
		return IdempotencyScope.of(identity, "POST", "/orders", IdempotencyKey.parse(List.of(key), 255)).hash();
	}

}
