package dev.modelgate.idempotency.autoconfigure;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallAdvisor;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.openai.api.OpenAiApi;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.retry.support.RetryTemplate;

import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;
import dev.modelgate.idempotency.ai.IdempotentTool;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.idempotency.ai.IdempotentToolPolicy;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ModelgateIdempotencySpringAiAutoConfiguration} on Spring Boot 3.5 with Spring AI 1.1's own
 * auto-configuration of tool calling and {@code ChatClient}. On Spring AI 1 the chat model runs the tool
 * loop itself with the {@code ToolCallingManager} bean (as Spring AI's OpenAI auto-configuration wires it,
 * which the test's chat model does the same way), so wrapping the bean protects the tools; model rounds are
 * recorded when the {@code ChatClient} runs the loop in Spring AI's {@code ToolCallAdvisor}.
 */
@Tag("boot")
class SpringBoot3SpringAiAutoConfigurationTests {

	private final MailingModelServer model = new MailingModelServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class,
				ModelgateIdempotencySpringAiAutoConfiguration.class, ToolCallingAutoConfiguration.class,
				ChatClientAutoConfiguration.class))
		.withUserConfiguration(ChatModelConfiguration.class)
		.withBean(Mailer.class)
		.withPropertyValues("modelgate.idempotency.store=memory", "test.model.base-url=" + this.model.baseUrl());

	@AfterEach
	void stopModel() {
		this.model.close();
	}

	@Test
	void wrapsSpringAi1sToolCallingManagerWhichTheChatModelUses() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(IdempotentToolPolicy.class);
			ToolCallingManager manager = context.getBean(ToolCallingManager.class);
			assertThat(manager).isInstanceOf(IdempotentToolCallingManager.class);
			assertThat(((IdempotentToolCallingManager) manager).getDelegate())
				.isInstanceOf(DefaultToolCallingManager.class);
			assertThat(context).doesNotHaveBean(IdempotentModelRoundsAdvisor.class);
		});
	}

	@Test
	void leavesTheManagerAloneWhenDisabledOrWithoutTheModule() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.spring-ai.enabled=false")
			.run((context) -> assertThat(context.getBean(ToolCallingManager.class))
				.isInstanceOf(DefaultToolCallingManager.class));
		this.contextRunner.withClassLoader(new FilteredClassLoader(IdempotentToolCallingManager.class))
			.run((context) -> assertThat(context.getBean(ToolCallingManager.class))
				.isInstanceOf(DefaultToolCallingManager.class));
	}

	@Test
	void anAgentBuiltFromTheAutoConfiguredChatClientSendsItsMailOncePerRunOnRedis() {
		String prefix = "modelgate:test:spring-ai-boot3:" + UUID.randomUUID() + ":";
		this.contextRunner.withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class))
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
	void recordsModelRoundsWhenTheChatClientRunsTheToolLoopInToolCallAdvisor() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.spring-ai.record-model-rounds=true")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotentModelRoundsAdvisor.class);
				Mailer mailer = context.getBean(Mailer.class);
				ChatClient chat = context.getBean(ChatClient.Builder.class)
					.defaultAdvisors(
							ToolCallAdvisor.builder().toolCallingManager(context.getBean(ToolCallingManager.class)).build())
					.defaultTools(mailer)
					.build();
				String run = "run-" + UUID.randomUUID();

				String first = agent(chat, run);
				String second = agent(chat, run);

				assertThat(second).isEqualTo(first);
				assertThat(this.model.requests).as("two rounds, asked once").hasValue(2);
				assertThat(mailer.sent).hasValue(1);
			});
	}

	@Test
	void doesNotRecordModelRoundsWhenTheChatModelRunsTheToolLoopItself() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.spring-ai.record-model-rounds=true")
			.run((context) -> {
				Mailer mailer = context.getBean(Mailer.class);
				ChatClient chat = context.getBean(ChatClient.Builder.class).defaultTools(mailer).build();
				String run = "run-" + UUID.randomUUID();

				String first = agent(chat, run);
				String second = agent(chat, run);

				assertThat(second).isEqualTo(first);
				assertThat(this.model.requests).as("two rounds, asked on each run").hasValue(4);
				assertThat(mailer.sent).as("the tool call is protected all the same").hasValue(1);
			});
	}

	private static String agent(ChatClient chat, String run) {
		return chat.prompt()
			.user("Mail Ann")
			.toolContext(Map.of(IdempotentToolCallingManager.RUN_KEY, run))
			.call()
			.content();
	}

	/** The OpenAI chat model as Spring AI 1's OpenAI auto-configuration builds it: on the manager bean. */
	@Configuration(proxyBeanMethods = false)
	static class ChatModelConfiguration {

		@Bean
		OpenAiChatModel chatModel(ToolCallingManager toolCallingManager, @Value("${test.model.base-url}") String baseUrl) {
			return OpenAiChatModel.builder()
				.openAiApi(OpenAiApi.builder().baseUrl(baseUrl).apiKey("test-key").build())
				.defaultOptions(OpenAiChatOptions.builder().model("mock-agent").build())
				.toolCallingManager(toolCallingManager)
				.retryTemplate(RetryTemplate.builder().maxAttempts(1).build())
				.build();
		}

	}

	static class Mailer {

		final AtomicInteger sent = new AtomicInteger();

		@Tool(name = "send_email", description = "Send an e-mail")
		@IdempotentTool
		public String sendEmail(String to) {
			return "mail-" + this.sent.incrementAndGet() + "-to-" + to;
		}

	}

}
