package dev.modelgate.idempotency.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.modelgate.idempotency.ai.IdempotentMcpTools;
import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;
import dev.modelgate.idempotency.ai.IdempotentTool;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.idempotency.ai.IdempotentToolPolicy;
import dev.modelgate.idempotency.ai.ToolProtection;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelgateIdempotencySpringAiAutoConfiguration} with Spring AI's own auto-configuration of tool
 * calling and {@code ChatClient}: when it wraps the tool calling manager, when it backs off, and an agent
 * built from the auto-configured {@code ChatClient.Builder} on real Redis, with Spring AI's OpenAI chat
 * model talking HTTP to an OpenAI-compatible server of the test's own.
 */
@Tag("boot")
class ModelgateIdempotencySpringAiAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class,
				ModelgateIdempotencySpringAiAutoConfiguration.class, ToolCallingAutoConfiguration.class,
				ChatClientAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	private final MailingModelServer model = new MailingModelServer();

	@AfterEach
	void stopModel() {
		this.model.close();
	}

	@Test
	void wrapsSpringAisToolCallingManager() {
		this.contextRunner.withBean(ChatModel.class, this::chatModel).run((context) -> {
			assertThat(context).hasSingleBean(IdempotentToolPolicy.class);
			ToolCallingManager manager = context.getBean(ToolCallingManager.class);
			assertThat(manager).isInstanceOf(IdempotentToolCallingManager.class);
			assertThat(((IdempotentToolCallingManager) manager).getDelegate())
				.isInstanceOf(DefaultToolCallingManager.class);
			assertThat(context.getBean(IdempotentToolPolicy.class).protectionOf(unannotatedTool())).isNull();
		});
	}

	@Test
	void protectsEveryToolWhenAsked() {
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withPropertyValues("modelgate.idempotency.spring-ai.all-tools=true")
			.run((context) -> assertThat(context.getBean(IdempotentToolPolicy.class).protectionOf(unannotatedTool()))
				.isEqualTo(ToolProtection.standard()));
	}

	@Test
	void backsOffToTheApplicationsPolicy() {
		IdempotentToolPolicy own = (tool) -> null;
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withBean(IdempotentToolPolicy.class, () -> own)
			.run((context) -> assertThat(context.getBean(IdempotentToolPolicy.class)).isSameAs(own));
	}

	@Test
	void leavesTheManagerAloneWhenDisabled() {
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withPropertyValues("modelgate.idempotency.spring-ai.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(IdempotentToolPolicy.class);
				assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(DefaultToolCallingManager.class);
			});
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> assertThat(context.getBean(ToolCallingManager.class))
				.isInstanceOf(DefaultToolCallingManager.class));
	}

	/**
	 * The tools Spring AI's MCP server auto-configuration publishes (a {@code List<SyncToolSpecification>}
	 * bean, converted by {@code McpToolUtils} as it does) honour a key sent in {@code _meta}.
	 */
	@Test
	void toolsServedOverMcpHonourTheKeyTheClientSends() {
		Mailer mailer = new Mailer();
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withBean("syncTools", List.class,
					() -> McpToolUtils.toSyncToolSpecification(List.of(ToolCallbacks.from(mailer))))
			.run((context) -> {
				SyncToolSpecification tool = (SyncToolSpecification) context.getBean("syncTools", List.class).get(0);
				CallToolRequest request = CallToolRequest.builder("send_email")
					.arguments(Map.of("to", "ann@example.com"))
					.meta(Map.of(IdempotentMcpTools.META_KEY, UUID.randomUUID().toString()))
					.build();
				McpSyncServerExchange exchange = new McpSyncServerExchange(null);
				CallToolResult first = tool.callHandler().apply(exchange, request);
				CallToolResult retry = tool.callHandler().apply(exchange, request);
				assertThat(mailer.sent).hasValue(1);
				assertThat(((McpSchema.TextContent) retry.content().get(0)).text())
					.isEqualTo(((McpSchema.TextContent) first.content().get(0)).text());
				assertThat(retry.meta()).containsEntry(IdempotentMcpTools.REPLAYED_META_KEY, true);
			});
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withPropertyValues("modelgate.idempotency.spring-ai.enabled=false")
			.withBean("syncTools", List.class,
					() -> McpToolUtils.toSyncToolSpecification(List.of(ToolCallbacks.from(mailer))))
			.run((context) -> {
				SyncToolSpecification tool = (SyncToolSpecification) context.getBean("syncTools", List.class).get(0);
				CallToolRequest request = CallToolRequest.builder("send_email")
					.arguments(Map.of("to", "bob@example.com"))
					.meta(Map.of(IdempotentMcpTools.META_KEY, UUID.randomUUID().toString()))
					.build();
				tool.callHandler().apply(new McpSyncServerExchange(null), request);
				tool.callHandler().apply(new McpSyncServerExchange(null), request);
				assertThat(mailer.sent).as("off: every call runs").hasValue(3);
			});
	}

	@Test
	void staysOffWithoutTheModule() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(IdempotentToolCallingManager.class))
			.withBean(ChatModel.class, this::chatModel)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(IdempotentToolPolicy.class);
				assertThat(context.getBean(ToolCallingManager.class)).isInstanceOf(DefaultToolCallingManager.class);
			});
	}

	@Test
	void anAgentBuiltFromTheAutoConfiguredChatClientSendsItsMailOncePerRunOnRedis() {
		String prefix = "modelgate:test:spring-ai-boot:" + UUID.randomUUID() + ":";
		this.contextRunner.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withBean(ChatModel.class, this::chatModel)
			.withBean(Mailer.class)
			.withPropertyValues("modelgate.idempotency.store=redis", "spring.data.redis.host=" + RedisTestServer.host(),
					"spring.data.redis.port=" + RedisTestServer.port(), "modelgate.idempotency.redis.key-prefix=" + prefix)
			.run((context) -> {
				Mailer mailer = context.getBean(Mailer.class);
				ChatClient chat = context.getBean(ChatClient.Builder.class).defaultTools(mailer).build();
				String run = "run-" + UUID.randomUUID();

				String first = agent(chat, run);
				String second = agent(chat, run);
				String other = agent(chat, run + "-other");

				assertThat(first).contains("mail-1-to-ann@example.com");
				assertThat(second).isEqualTo(first);
				assertThat(other).contains("mail-2-to-ann@example.com");
				assertThat(mailer.sent).hasValue(2);
				assertThat(this.model.requests).hasValue(6);
			});
	}

	@Test
	void recordsModelRoundsWhenAskedSoAReRunDoesNotAskTheModelAgain() {
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.withBean(Mailer.class)
			.withPropertyValues("modelgate.idempotency.spring-ai.record-model-rounds=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotentModelRoundsAdvisor.class);
				Mailer mailer = context.getBean(Mailer.class);
				ChatClient chat = context.getBean(ChatClient.Builder.class).defaultTools(mailer).build();
				String run = "run-" + UUID.randomUUID();

				String first = agent(chat, run);
				String second = agent(chat, run);

				assertThat(second).isEqualTo(first);
				assertThat(this.model.requests).as("two rounds, asked once").hasValue(2);
				assertThat(mailer.sent).hasValue(1);
			});
		this.contextRunner.withBean(ChatModel.class, this::chatModel)
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotentModelRoundsAdvisor.class));
	}

	private static String agent(ChatClient chat, String run) {
		return chat.prompt()
			.user("Mail Ann")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
			.call()
			.content();
	}

	private ChatModel chatModel() {
		return openAiChatModel(this.model);
	}

	/** Spring AI 2's OpenAI chat model, pointed at the test's server. */
	static ChatModel openAiChatModel(MailingModelServer server) {
		return OpenAiChatModel.builder()
			.options(OpenAiChatOptions.builder()
				.baseUrl(server.baseUrl() + "/v1")
				.apiKey("test-key")
				.model("mock-agent")
				.maxRetries(0)
				.build())
			.build();
	}

	private static org.springframework.ai.tool.ToolCallback unannotatedTool() {
		return MethodToolCallbackProvider.builder().toolObjects(new Lookup()).build().getToolCallbacks()[0];
	}

	static class Mailer {

		final AtomicInteger sent = new AtomicInteger();

		@Tool(name = "send_email", description = "Send an e-mail")
		@IdempotentTool
		public String sendEmail(String to) {
			return "mail-" + this.sent.incrementAndGet() + "-to-" + to;
		}

	}

	static class Lookup {

		@Tool(name = "lookup_order", description = "Look an order up")
		public String lookupOrder(String id) {
			return "order-" + id;
		}

	}

}
