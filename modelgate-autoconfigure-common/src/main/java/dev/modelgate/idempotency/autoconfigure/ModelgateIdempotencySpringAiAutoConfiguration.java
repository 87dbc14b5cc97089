package dev.modelgate.idempotency.autoconfigure;

import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;

import dev.modelgate.idempotency.ai.IdempotentMcpTools;
import dev.modelgate.idempotency.ai.IdempotentMcpToolsPostProcessor;
import dev.modelgate.idempotency.ai.IdempotentModelRoundsAdvisor;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManager;
import dev.modelgate.idempotency.ai.IdempotentToolCallingManagerPostProcessor;
import dev.modelgate.idempotency.ai.IdempotentToolPolicy;
import dev.modelgate.idempotency.core.IdempotencyTemplate;

/**
 * Agents that never act twice: the application's {@code ToolCallingManager} bean (Spring AI's, which its
 * auto-configured {@code ChatClient.Builder} uses) is wrapped in an {@link IdempotentToolCallingManager},
 * so that the tool calls of a keyed run run at most once, on the store the rest uses. Tools are protected
 * when their {@code @Tool} method carries {@code @IdempotentTool}, or all of them with
 * {@code modelgate.idempotency.spring-ai.all-tools}; an {@link IdempotentToolPolicy} bean decides instead.
 * Off with {@code modelgate.idempotency.spring-ai.enabled=false}. With
 * {@code modelgate.idempotency.spring-ai.record-model-rounds}, the model rounds of a keyed run are recorded
 * too ({@link IdempotentModelRoundsAdvisor}).
 *
 * <p>The same on both Spring Boot lines. On Spring Boot 4 (Spring AI 2) the manager serves the
 * {@code ChatClient}'s tool calling advisor; on Spring Boot 3.5 (Spring AI 1) the chat model's own tool
 * loop uses the bean. The model rounds advisor joins the auto-configured {@code ChatClient.Builder} on
 * both lines through the customizer each line has; on Spring AI 1 it records rounds only under Spring
 * AI's {@code ToolCallAdvisor} (see {@link IdempotentModelRoundsAdvisor}).
 *
 * <p>The tools an MCP server built with Spring AI 2 serves honour a key the client sends in
 * {@code _meta} ({@link IdempotentMcpTools}).
 */
@AutoConfiguration(after = ModelgateIdempotencyOperationsAutoConfiguration.class,
		afterName = "org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration")
@ConditionalOnClass(value = IdempotentToolCallingManager.class,
		name = "org.springframework.ai.model.tool.ToolCallingManager")
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.spring-ai.enabled", matchIfMissing = true)
@ConditionalOnBean(IdempotencyTemplate.class)
public class ModelgateIdempotencySpringAiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotentToolPolicy idempotentToolPolicy(ModelgateIdempotencyProperties properties) {
		return properties.getSpringAi().isAllTools() ? IdempotentToolPolicy.allTools()
				: IdempotentToolPolicy.annotated();
	}

	/**
	 * Static, as a post-processor must be; the template and the policy are asked for when the manager
	 * bean is created. A call waits for the same call running elsewhere (a concurrent duplicate of the
	 * run) up to {@code wait-timeout}.
	 */
	@Bean
	@ConditionalOnMissingBean
	@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
	static IdempotentToolCallingManagerPostProcessor idempotentToolCallingManagerPostProcessor(
			ObjectProvider<IdempotencyTemplate> template, ObjectProvider<IdempotentToolPolicy> policy,
			ObjectProvider<ModelgateIdempotencyProperties> properties) {
		return new IdempotentToolCallingManagerPostProcessor((manager) -> new IdempotentToolCallingManager(manager,
				template.getObject(), policy.getObject(), properties.getObject().getWaitTimeout()));
	}

	/**
	 * Model rounds recorded too, when asked for: the advisor joins every {@code ChatClient} built from
	 * Spring AI's auto-configured {@code ChatClient.Builder}.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.ai.chat.client.ChatClientBuilderCustomizer")
	@ConditionalOnBooleanProperty(name = "modelgate.idempotency.spring-ai.record-model-rounds")
	static class ModelRoundsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdempotentModelRoundsAdvisor idempotentModelRoundsAdvisor(IdempotencyTemplate template) {
			return new IdempotentModelRoundsAdvisor(template);
		}

		@Bean
		ChatClientBuilderCustomizer idempotentModelRoundsCustomizer(IdempotentModelRoundsAdvisor advisor) {
			return (builder) -> builder.defaultAdvisors(advisor);
		}

	}

	/**
	 * The same on Spring AI 1 (Spring Boot 3.5), whose auto-configured {@code ChatClient.Builder} takes
	 * {@code ChatClientCustomizer}s; Spring AI 2 still has that interface, deprecated, so it is used only
	 * where the newer one is missing.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.ai.chat.client.ChatClientCustomizer")
	@ConditionalOnMissingClass("org.springframework.ai.chat.client.ChatClientBuilderCustomizer")
	@ConditionalOnBooleanProperty(name = "modelgate.idempotency.spring-ai.record-model-rounds")
	static class SpringAi1ModelRoundsConfiguration {

		@Bean
		@ConditionalOnMissingBean
		IdempotentModelRoundsAdvisor idempotentModelRoundsAdvisor(IdempotencyTemplate template) {
			return new IdempotentModelRoundsAdvisor(template);
		}

		@Bean
		@SuppressWarnings("removal")
		org.springframework.ai.chat.client.ChatClientCustomizer idempotentModelRoundsCustomizer(
				IdempotentModelRoundsAdvisor advisor) {
			return (builder) -> builder.defaultAdvisors(advisor);
		}

	}

	/**
	 * Tools served by Spring AI's MCP server: a {@code tools/call} with a key in its {@code _meta} runs at
	 * most once. Only with the MCP SDK of Spring AI 2 (1.0 or later; Spring AI 1.1 brings 0.17).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "io.modelcontextprotocol.server.McpServerFeatures",
			"io.modelcontextprotocol.json.McpJsonDefaults" })
	static class McpServerToolsConfiguration {

		@Bean
		@Role(BeanDefinition.ROLE_INFRASTRUCTURE)
		static IdempotentMcpToolsPostProcessor idempotentMcpToolsPostProcessor(
				ObjectProvider<IdempotencyTemplate> template, ObjectProvider<ModelgateIdempotencyProperties> properties) {
			return new IdempotentMcpToolsPostProcessor((tool) -> IdempotentMcpTools.protect(tool, template.getObject(),
					properties.getObject().getWaitTimeout()));
		}

	}

}
