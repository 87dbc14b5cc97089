package dev.modelgate.idempotency.web;

import java.util.HashSet;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which responses are recorded and which release the key (contract, section 5): 2xx, 3xx and 4xx are
 * recorded except 408, 409, 425 and 429; 5xx are released unless server errors are recorded.
 */
class StatusResponsePolicyTests {

	private final StatusResponsePolicy defaults = new StatusResponsePolicy(
			new HashSet<>(StatusResponsePolicy.DEFAULT_RELEASE_STATUSES), false);

	@ParameterizedTest
	@ValueSource(ints = { 200, 201, 202, 204, 206, 299, 301, 302, 303, 304, 307, 308, 400, 401, 403, 404, 405, 410,
			413, 415, 422, 499 })
	void recordsSuccessRedirectsAndClientErrors(int status) {
		assertThat(this.defaults.shouldRecord(status)).isTrue();
	}

	@ParameterizedTest
	@ValueSource(ints = { 408, 409, 425, 429 })
	void releasesStatusesThatSayTryAgain(int status) {
		assertThat(this.defaults.shouldRecord(status)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(ints = { 500, 501, 502, 503, 504, 599 })
	void releasesServerErrorsByDefault(int status) {
		assertThat(this.defaults.shouldRecord(status)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(ints = { 500, 502, 503, 599 })
	void recordsServerErrorsWhenAskedTo(int status) {
		StatusResponsePolicy policy = new StatusResponsePolicy(Set.of(408, 409, 425, 429), true);
		assertThat(policy.shouldRecord(status)).isTrue();
		assertThat(policy.shouldRecord(429)).isFalse();
		assertThat(policy.shouldRecord(200)).isTrue();
	}

	@Test
	void listedServerErrorIsReleasedEvenWhenServerErrorsAreRecorded() {
		StatusResponsePolicy policy = new StatusResponsePolicy(Set.of(429, 503), true);
		assertThat(policy.shouldRecord(503)).isFalse();
		assertThat(policy.shouldRecord(500)).isTrue();
		assertThat(policy.shouldRecord(429)).isFalse();
	}

	@Test
	void usesTheConfiguredReleaseStatuses() {
		StatusResponsePolicy policy = new StatusResponsePolicy(Set.of(404), false);
		assertThat(policy.shouldRecord(404)).isFalse();
		assertThat(policy.shouldRecord(429)).isTrue();
		assertThat(policy.shouldRecord(200)).isTrue();
		assertThat(policy.shouldRecord(500)).isFalse();
	}

	@Test
	void isNotChangedByLaterChangesToTheGivenSet() {
		Set<Integer> statuses = new HashSet<>(Set.of(429));
		StatusResponsePolicy policy = new StatusResponsePolicy(statuses, false);
		statuses.add(200);
		assertThat(policy.shouldRecord(200)).isTrue();
	}

}
