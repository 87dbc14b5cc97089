package dev.modelgate.idempotency.web;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which response headers are kept for replay: the allowlist plus configured additions, never
 * credentials, cookies or hop-by-hop headers (contract, section 8).
 */
class ReplayHeadersTests {

	private final ReplayHeaders defaults = new ReplayHeaders(List.of());

	@ParameterizedTest
	@ValueSource(strings = { "Content-Type", "Content-Language", "Content-Encoding", "Content-Disposition",
			"Location", "ETag", "Last-Modified", "Cache-Control", "Expires", "Link", "Vary" })
	void replaysEveryDefaultHeader(String name) {
		assertThat(this.defaults.isReplayed(name)).isTrue();
	}

	@Test
	void matchesHeaderNamesCaseInsensitively() {
		assertThat(this.defaults.isReplayed("content-type")).isTrue();
		assertThat(this.defaults.isReplayed("CONTENT-TYPE")).isTrue();
		assertThat(this.defaults.isReplayed("etag")).isTrue();
		assertThat(this.defaults.isReplayed("lOcAtIoN")).isTrue();
	}

	@Test
	void doesNotReplayHeadersOutsideTheAllowlist() {
		assertThat(this.defaults.isReplayed("X-Request-Id")).isFalse();
		assertThat(this.defaults.isReplayed("Date")).isFalse();
		assertThat(this.defaults.isReplayed("Server")).isFalse();
		assertThat(this.defaults.isReplayed("Retry-After")).isFalse();
	}

	@Test
	void replaysConfiguredAdditionsCaseInsensitively() {
		ReplayHeaders headers = new ReplayHeaders(List.of("X-Request-Id", "openai-model"));
		assertThat(headers.isReplayed("X-Request-Id")).isTrue();
		assertThat(headers.isReplayed("x-request-id")).isTrue();
		assertThat(headers.isReplayed("OpenAI-Model")).isTrue();
		assertThat(headers.isReplayed("Content-Type")).isTrue();
		assertThat(headers.isReplayed("X-Other")).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "Set-Cookie", "set-cookie", "Set-Cookie2", "Authorization", "authorization",
			"WWW-Authenticate", "www-authenticate", "Proxy-Authenticate", "Proxy-Authorization", "Connection",
			"Keep-Alive", "TE", "Trailer", "Transfer-Encoding", "transfer-encoding", "Upgrade", "Content-Length" })
	void neverReplaysCredentialsCookiesOrHopByHopHeaders(String name) {
		assertThat(this.defaults.isReplayed(name)).isFalse();
	}

	@ParameterizedTest
	@ValueSource(strings = { "Set-Cookie", "SET-COOKIE", "Authorization", "WWW-Authenticate", "Connection",
			"Transfer-Encoding", "Keep-Alive", "Upgrade", "Proxy-Authenticate" })
	void neverReplaysForbiddenHeadersEvenWhenConfigured(String name) {
		ReplayHeaders headers = new ReplayHeaders(List.of(name, name.toLowerCase(), "X-Allowed"));
		assertThat(headers.isReplayed(name)).isFalse();
		assertThat(headers.isReplayed(name.toLowerCase())).isFalse();
		assertThat(headers.isReplayed("X-Allowed")).isTrue();
	}

}
