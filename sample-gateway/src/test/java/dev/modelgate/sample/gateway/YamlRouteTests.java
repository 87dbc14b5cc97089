package dev.modelgate.sample.gateway;

import java.net.URI;
import java.net.http.HttpResponse;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Routes declared in configuration, as YAML users write them: the shortcut
 * {@code Idempotency=<scope>,<ttl>,<required>} and the named-arguments form, each bound to the
 * filter's settings.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class YamlRouteTests {

	static {
		GatewayBlockHound.install();
	}

	static final CountingUpstream upstream = CountingUpstream.shared();

	@LocalServerPort
	int port;

	/**
	 * The routes, in one property source: a list is bound from the one source that has it, so the
	 * upstream's port (known at run time) cannot be added from another.
	 */
	@DynamicPropertySource
	static void routesToTheUpstream(DynamicPropertyRegistry registry) {
		String routes = "spring.cloud.gateway.server.webflux.routes";
		String uri = URI.create(upstream.baseUrl()).resolve("/").toString();
		registry.add(routes + "[0].id", () -> "shortcut");
		registry.add(routes + "[0].uri", () -> uri);
		registry.add(routes + "[0].predicates[0]", () -> "Path=/shortcut/v1/chat/completions");
		registry.add(routes + "[0].filters[0]", () -> "Idempotency=shared-chat,1h,true");
		registry.add(routes + "[0].filters[1]", () -> "StripPrefix=1");
		registry.add(routes + "[1].id", () -> "named");
		registry.add(routes + "[1].uri", () -> uri);
		registry.add(routes + "[1].predicates[0]", () -> "Path=/named/v1/chat/completions");
		registry.add(routes + "[1].filters[0].name", () -> "Idempotency");
		registry.add(routes + "[1].filters[0].args.scope", () -> "shared-chat");
		registry.add(routes + "[1].filters[0].args.ignore-fields", () -> "/user");
		registry.add(routes + "[1].filters[0].args.in-progress", () -> "wait");
		registry.add(routes + "[1].filters[1]", () -> "StripPrefix=1");
	}

	@BeforeEach
	void resetUpstream() {
		upstream.reset();
	}

	@Test
	void shortcutRequiresAKey() {
		HttpResponse<String> keyless = send("/shortcut", null, "{\"model\":\"m\"}");

		assertThat(keyless.statusCode()).isEqualTo(400);
		assertThat(keyless.body()).contains("idempotency_key_missing");
		assertThat(upstream.calls()).isZero();
	}

	@Test
	void routesSharingAScopeShareTheirKeys() {
		String key = "yaml-" + UUID.randomUUID();
		HttpResponse<String> first = send("/shortcut", key, "{\"model\":\"m\"}");
		HttpResponse<String> other = send("/named", key, "{\"model\":\"m\"}");

		assertThat(first.statusCode()).isEqualTo(200);
		// The same key space, and another path: a key reuse, not a new call.
		assertThat(other.statusCode()).isEqualTo(422);
		assertThat(other.body()).contains("idempotency_key_reused");
		assertThat(upstream.calls()).isEqualTo(1);
		assertThat(upstream.lastCall().path()).isEqualTo("/v1/chat/completions");
	}

	@Test
	void ignoredFieldsAreLeftOutOfTheFingerprint() {
		String key = "yaml-" + UUID.randomUUID();
		HttpResponse<String> first = send("/named", key, "{\"model\":\"m\",\"user\":\"a\"}");
		HttpResponse<String> retry = send("/named", key, "{\"user\":\"b\",\"model\":\"m\"}");

		assertThat(first.statusCode()).isEqualTo(200);
		assertThat(retry.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(retry.body()).isEqualTo(first.body());
		assertThat(upstream.calls()).isEqualTo(1);
	}

	private HttpResponse<String> send(String prefix, String key, String body) {
		return RouteRequests.post(this.port, prefix + "/v1/chat/completions", "Bearer sk-yaml", key, body);
	}

}
