package dev.modelgate.idempotency.ai;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.mcp.server.webmvc.transport.WebMvcStreamableServerTransportProvider;
import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.context.support.AnnotationConfigWebApplicationContext;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.function.RouterFunction;

import dev.modelgate.idempotency.core.IdempotencyCoordinator;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A real MCP server (Spring AI's WebMVC streamable HTTP transport and a synchronous server that runs tools on
 * the request's thread, as {@code spring-ai-starter-mcp-server-webmvc} serves them, on Tomcat) serving the agent's tools, converted
 * as Spring AI's MCP server auto-configuration converts them and protected by {@link IdempotentMcpTools},
 * called by the SDK's real client, and by a Spring AI agent whose tools are those remote tools. Counted at
 * the tools: how often each really ran.
 */
abstract class AbstractMcpToolsTests {

	private final AgentTools tools = new AgentTools();

	/** Every call that reached the server, before the protection decided anything. */
	private final AtomicInteger arrivals = new AtomicInteger();

	private IdempotencyTemplate serverTemplate;

	private WebMvcStreamableServerTransportProvider transport;

	private AnnotationConfigWebApplicationContext web;

	private McpSyncServer server;

	private Tomcat tomcat;

	private McpSyncClient client;

	protected abstract IdempotencyStore store();

	/**
	 * Whether the transport copies the {@code Idempotency-Key} header into the transport context, as
	 * docs/AGENTS.md shows; without it (as Spring AI's auto-configuration builds the transport) the tools read
	 * the header from the request Spring MVC binds to their thread.
	 */
	protected boolean copiesTheHeaderIntoTheTransportContext() {
		return true;
	}

	@BeforeEach
	void startServer() throws Exception {
		this.serverTemplate = new IdempotencyTemplate(IdempotencyCoordinator.create(store(), Duration.ofSeconds(10)));
		List<SyncToolSpecification> served = new ArrayList<>();
		for (var callback : ToolCallbacks.from(this.tools)) {
			SyncToolSpecification tool = IdempotentMcpTools.protect(McpToolUtils.toSyncToolSpecification(callback),
					this.serverTemplate, Duration.ofSeconds(20));
			served.add(new SyncToolSpecification(tool.tool(), (exchange, request) -> {
				this.arrivals.incrementAndGet();
				return tool.callHandler().apply(exchange, request);
			}));
		}
		WebMvcStreamableServerTransportProvider.Builder transport = WebMvcStreamableServerTransportProvider.builder()
			.mcpEndpoint("/mcp");
		if (copiesTheHeaderIntoTheTransportContext()) {
			transport.contextExtractor((request) -> IdempotentMcpTools
				.transportContext(request.headers().firstHeader(IdempotentMcpTools.HEADER)));
		}
		this.transport = transport.build();
		this.server = McpServer.sync(this.transport)
			.serverInfo("tools", "1")
			.capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
			// Tools run on the request's thread, as Spring AI's auto-configuration has them on a servlet
			// application. The SDK's default (Reactor's boundedElastic) can lose a fast error's answer:
			// see docs/AGENTS.md and dev/notes/mcp-tests.md.
			.immediateExecution(true)
			.tools(served)
			.build();
		this.web = new AnnotationConfigWebApplicationContext();
		this.web.register(WebConfiguration.class);
		RouterFunction<?> routes = this.transport.getRouterFunction();
		this.web.addBeanFactoryPostProcessor((beans) -> beans.registerSingleton("mcp", routes));
		this.tomcat = new Tomcat();
		this.tomcat.setPort(0);
		this.tomcat.setBaseDir(System.getProperty("java.io.tmpdir"));
		Context context = this.tomcat.addContext("", System.getProperty("java.io.tmpdir"));
		Wrapper servlet = Tomcat.addServlet(context, "dispatcher", new DispatcherServlet(this.web));
		servlet.setAsyncSupported(true);
		servlet.setLoadOnStartup(1);
		context.addServletMappingDecoded("/", "dispatcher");
		this.tomcat.start();
		this.client = newClient();
	}

	/** What a Spring Boot application's MVC set-up gives the transport's routes. */
	@Configuration(proxyBeanMethods = false)
	@EnableWebMvc
	static class WebConfiguration {

	}

	private McpSyncClient newClient() {
		return newClient(null);
	}

	/** A client whose every HTTP request carries this {@code Idempotency-Key} header, unless it is null. */
	private McpSyncClient newClient(String headerKey) {
		HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport
			.builder("http://localhost:" + this.tomcat.getConnector().getLocalPort())
			.endpoint("/mcp");
		if (headerKey != null) {
			transport.httpRequestCustomizer((builder, method, uri, body, context) -> builder
				.header(IdempotentMcpTools.HEADER, headerKey));
		}
		McpSyncClient created = McpClient
			.sync(transport.build())
			.requestTimeout(Duration.ofSeconds(30))
			.build();
		created.initialize();
		return created;
	}

	@AfterEach
	void stopServer() throws Exception {
		this.client.closeGracefully();
		this.server.closeGracefully();
		this.tomcat.stop();
		this.tomcat.destroy();
		this.web.close();
	}

	private CallToolResult sendEmail(String to, String key) {
		CallToolRequest.Builder request = CallToolRequest.builder("send_email")
			.arguments(Map.of("to", to, "text", "the weekly report"));
		if (key != null) {
			request.meta(Map.of(IdempotentMcpTools.META_KEY, key));
		}
		return this.client.callTool(request.build());
	}

	private static CallToolRequest.Builder sendEmailRequest(String to) {
		return CallToolRequest.builder("send_email").arguments(Map.of("to", to, "text", "the weekly report"));
	}

	private static String text(CallToolResult result) {
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

	@Test
	void aRetryWithTheSameKeyRunsTheToolOnceAndGetsTheRecordedResultMarkedReplayed() {
		String key = UUID.randomUUID().toString();

		CallToolResult first = sendEmail("ann@example.com", key);
		CallToolResult retry = sendEmail("ann@example.com", key);

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(text(first)).startsWith("\"mail-").endsWith("-to-ann@example.com\"");
		assertThat(text(retry)).isEqualTo(text(first));
		assertThat(first.meta()).isNullOrEmpty();
		assertThat(retry.meta()).containsEntry(IdempotentMcpTools.REPLAYED_META_KEY, true);
	}

	@Test
	void aRetryFromAnotherClientConnectionWithTheSameKeyIsReplayedToo() {
		String key = UUID.randomUUID().toString();
		CallToolResult first = sendEmail("ann@example.com", key);

		McpSyncClient reconnected = newClient();
		try {
			CallToolResult retry = reconnected.callTool(CallToolRequest.builder("send_email")
				.arguments(Map.of("to", "ann@example.com", "text", "the weekly report"))
				.meta(Map.of(IdempotentMcpTools.META_KEY, key))
				.build());
			assertThat(text(retry)).isEqualTo(text(first));
		}
		finally {
			reconnected.closeGracefully();
		}
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
	}

	@Test
	void aKeySentOnlyAsTheHttpHeaderRunsTheToolOnceAndReplaysTheRetries() {
		String key = UUID.randomUUID().toString();
		McpSyncClient withHeader = newClient(key);
		try {
			CallToolResult first = withHeader.callTool(sendEmailRequest("ann@example.com").build());
			CallToolResult second = withHeader.callTool(sendEmailRequest("ann@example.com").build());
			CallToolResult third = withHeader.callTool(sendEmailRequest("ann@example.com").build());

			assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
			assertThat(first.meta()).isNullOrEmpty();
			assertThat(List.of(second, third)).allSatisfy((retry) -> {
				assertThat(text(retry)).isEqualTo(text(first));
				assertThat(retry.meta()).containsEntry(IdempotentMcpTools.REPLAYED_META_KEY, true);
			});
		}
		finally {
			withHeader.closeGracefully();
		}
		for (int i = 0; i < 3; i++) {
			CallToolResult unkeyed = sendEmail("ann@example.com", null);
			assertThat(unkeyed.meta()).isNullOrEmpty();
		}
		assertThat(this.tools.mailsTo("ann@example.com")).as("one run with the header, three without a key")
			.isEqualTo(4);
	}

	@Test
	void aKeyInMetaWinsOverTheHttpHeader() {
		String headerKey = UUID.randomUUID().toString();
		McpSyncClient withHeader = newClient(headerKey);
		try {
			CallToolResult first = withHeader.callTool(sendEmailRequest("ann@example.com")
				.meta(Map.of(IdempotentMcpTools.META_KEY, UUID.randomUUID().toString()))
				.build());
			CallToolResult second = withHeader.callTool(sendEmailRequest("ann@example.com")
				.meta(Map.of(IdempotentMcpTools.META_KEY, UUID.randomUUID().toString()))
				.build());

			assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(2);
			assertThat(text(second)).isNotEqualTo(text(first));
			assertThat(second.meta()).isNullOrEmpty();
		}
		finally {
			withHeader.closeGracefully();
		}
	}

	@Test
	void withoutAKeyEveryCallRuns() {
		CallToolResult first = sendEmail("ann@example.com", null);
		CallToolResult second = sendEmail("ann@example.com", null);

		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(2);
		assertThat(text(second)).isNotEqualTo(text(first));
	}

	@Test
	void theSameKeyWithOtherArgumentsIsRefusedAndDoesNotRun() {
		String key = UUID.randomUUID().toString();
		sendEmail("ann@example.com", key);

		assertThatExceptionOfType(McpError.class).isThrownBy(() -> sendEmail("bob@example.com", key))
			.satisfies((ex) -> {
				assertThat(ex.getJsonRpcError().code()).isEqualTo(McpSchema.ErrorCodes.INVALID_PARAMS);
				assertThat(ex.getJsonRpcError().data()).isEqualTo(Map.of("code", "idempotency_key_reused"));
			});
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
		assertThat(this.tools.mailsTo("bob@example.com")).isZero();
	}

	@Test
	void aKeyThatIsNotAStringIsRefused() {
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> this.client.callTool(CallToolRequest.builder("send_email")
				.arguments(Map.of("to", "ann@example.com", "text", "the weekly report"))
				.meta(Map.of(IdempotentMcpTools.META_KEY, 42))
				.build()))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().data()).isEqualTo(Map.of("code", "idempotency_key_invalid")));
		assertThat(this.tools.mailsTo("ann@example.com")).isZero();
	}

	@Test
	void aFailedCallIsNotKeptSoTheRetryRunsTheTool() {
		String key = UUID.randomUUID().toString();
		AtomicInteger attempts = new AtomicInteger();
		this.tools.beforeSending = () -> {
			if (attempts.incrementAndGet() == 1) {
				throw new IllegalStateException("mail server down");
			}
		};

		CallToolResult failed = sendEmail("ann@example.com", key);
		CallToolResult retry = sendEmail("ann@example.com", key);

		assertThat(failed.isError()).isTrue();
		assertThat(retry.isError()).isFalse();
		assertThat(attempts).hasValue(2);
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
	}

	@Test
	void concurrentDuplicatesRunTheToolOnceAndAllGetItsResult() throws Exception {
		int duplicates = 4;
		String key = UUID.randomUUID().toString();
		// The first call sends only once every duplicate has reached the server, so they meet it running.
		this.tools.beforeSending = () -> await().atMost(Duration.ofSeconds(10))
			.until(() -> this.arrivals.get() == duplicates);
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(duplicates);
		try {
			List<Future<CallToolResult>> results = new ArrayList<>();
			for (int i = 0; i < duplicates; i++) {
				results.add(threads.submit(() -> {
					start.await();
					return sendEmail("ann@example.com", key);
				}));
			}
			start.countDown();
			List<String> texts = new ArrayList<>();
			for (Future<CallToolResult> result : results) {
				texts.add(text(result.get(60, TimeUnit.SECONDS)));
			}
			assertThat(texts).hasSize(duplicates).containsOnly(texts.get(0));
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
	}

	/**
	 * The crash window of an agent that calls a remote tool: the tool ran on the server, the agent lost
	 * its own record (here: a re-run on an empty store of its own). Its protected calls carry their
	 * derived key in {@code _meta}, so the server replays them instead of mailing again.
	 */
	@Test
	void anAgentsCallsToRemoteToolsCarryTheirDerivedKeySoTheServerDoesNotRunThemTwice() throws Exception {
		String run = "run-" + UUID.randomUUID();
		try (MockOpenAiServer model = new MockOpenAiServer()) {
			String first = remoteAgent(model).prompt()
				.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
				.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
				.call()
				.content();
			String second = remoteAgent(model).prompt()
				.user("Mail the weekly report to Ann and Bob, check order 42, open a follow-up ticket")
				.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
				.call()
				.content();

			assertThat(this.tools.mailsTo("ann@example.com")).isEqualTo(1);
			assertThat(this.tools.mailsTo("bob@example.com")).isEqualTo(1);
			assertThat(this.tools.tickets).hasValue(1);
			assertThat(this.tools.lookups).as("the agent protects all its tools, so lookups too").hasValue(1);
			assertThat(second).isEqualTo(first);
		}
	}

	/** An agent with an empty store of its own, all of whose tools are the server's, over MCP. */
	private ChatClient remoteAgent(MockOpenAiServer model) {
		IdempotencyTemplate agentTemplate = new IdempotencyTemplate(
				IdempotencyCoordinator.create(new InMemoryIdempotencyStore(), Duration.ofSeconds(2)));
		ToolCallingManager manager = new IdempotentToolCallingManager(ToolCallingManager.builder().build(),
				agentTemplate, IdempotentToolPolicy.allTools(), Duration.ofSeconds(20));
		return SpringAiLine.agent(model.baseUrl(), manager)
			.defaultToolCallbacks(new SyncMcpToolCallbackProvider(this.client))
			.build();
	}

}
