package dev.modelgate.consumers.mcp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.modelgate.idempotency.core.IdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Proves that an application with only the dependencies docs/AGENTS.md names for serving tools (the starter,
 * Spring AI's MCP server starter for Spring MVC, Spring Data Redis) serves its {@code @Tool} methods so that a
 * {@code tools/call} retried with one key runs once: the MCP SDK's real client over HTTP, the records in a real
 * Redis. The key is sent in {@code _meta}, or as the {@code Idempotency-Key} header with nothing declared for it.
 * Without the library each of the three calls would send a mail, as the calls without a key do.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SpringAiMcpServerTests {

	private static final String META_KEY = "dev.modelgate/idempotency-key";

	private static final String REPLAYED_META_KEY = "dev.modelgate/idempotent-replayed";

	@LocalServerPort
	private int port;

	@Autowired
	private MailTools mails;

	@Autowired
	private IdempotencyStore store;

	@Autowired
	private RedisConnectionFactory redis;

	@Value("${spring.data.redis.host:localhost}:${spring.data.redis.port:6379}")
	private String redisAddress;

	/** The application starts without Redis (its client connects lazily): say so plainly rather than fail later. */
	@BeforeEach
	void redisAnswers() {
		try (var connection = this.redis.getConnection()) {
			connection.ping();
		}
		catch (RuntimeException ex) {
			throw new AssertionError("Redis at " + this.redisAddress
					+ " does not answer; these tests need it (set REDIS_HOST and REDIS_PORT) and never skip", ex);
		}
	}

	@Test
	void theStoreIsRedis() {
		assertThat(this.store.getClass().getSimpleName()).contains("Redis");
	}

	@Test
	void threeCallsWithOneKeyInMetaSendOneMailAndTheRetriesAreMarkedReplayed() {
		String key = UUID.randomUUID().toString();
		int before = this.mails.sent();
		List<CallToolResult> results = new ArrayList<>();
		McpSyncClient client = client(null);
		try {
			for (int i = 0; i < 3; i++) {
				results.add(client.callTool(sendEmail().meta(Map.of(META_KEY, key)).build()));
			}
		}
		finally {
			client.closeGracefully();
		}

		assertThat(this.mails.sent() - before).isEqualTo(1);
		assertThat(results).extracting(SpringAiMcpServerTests::text).containsOnly(text(results.get(0)));
		assertThat(results.get(0).meta()).isNullOrEmpty();
		assertThat(results.subList(1, 3)).allSatisfy((retry) -> assertThat(retry.meta())
			.containsEntry(REPLAYED_META_KEY, true));
	}

	@Test
	void threeCallsWithOneKeyAsTheHttpHeaderSendOneMail() {
		int before = this.mails.sent();
		List<CallToolResult> results = new ArrayList<>();
		McpSyncClient client = client(UUID.randomUUID().toString());
		try {
			for (int i = 0; i < 3; i++) {
				results.add(client.callTool(sendEmail().build()));
			}
		}
		finally {
			client.closeGracefully();
		}

		assertThat(this.mails.sent() - before).isEqualTo(1);
		assertThat(results).extracting(SpringAiMcpServerTests::text).containsOnly(text(results.get(0)));
	}

	@Test
	void threeCallsWithoutAKeySendThreeMails() {
		int before = this.mails.sent();
		McpSyncClient client = client(null);
		try {
			for (int i = 0; i < 3; i++) {
				client.callTool(sendEmail().build());
			}
		}
		finally {
			client.closeGracefully();
		}

		assertThat(this.mails.sent() - before).isEqualTo(3);
	}

	private static CallToolRequest.Builder sendEmail() {
		return CallToolRequest.builder("send_email").arguments(Map.of("to", "ann@example.com", "text", "the weekly report"));
	}

	private static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	/** The SDK's client on the streamable HTTP transport; every request carries this header when it is not null. */
	private McpSyncClient client(String headerKey) {
		HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.port)
			.endpoint("/mcp");
		if (headerKey != null) {
			transport.httpRequestCustomizer((builder, method, uri, body, context) -> builder.header("Idempotency-Key", headerKey));
		}
		McpSyncClient client = McpClient.sync(transport.build()).requestTimeout(Duration.ofSeconds(30)).build();
		client.initialize();
		return client;
	}

}
