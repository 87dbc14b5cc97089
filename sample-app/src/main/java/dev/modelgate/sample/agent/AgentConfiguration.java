package dev.modelgate.sample.agent;

import java.util.List;

import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionExceptionProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.ai.IdempotentToolPolicy;
import dev.modelgate.idempotency.core.OutcomeUnknownException;

/**
 * How the agent's tools are protected, beyond their {@code @IdempotentTool}: a mail whose outcome is
 * unknown is looked up by its call's key before it is sent again.
 */
@Configuration(proxyBeanMethods = false)
class AgentConfiguration {

	@Bean
	IdempotentToolPolicy idempotentToolPolicy(MailTool mailTool) {
		return IdempotentToolPolicy.annotated()
			.reconciling(MailTool.NAME, (toolCallKey, arguments) -> mailTool.findSent(toolCallKey));
	}

	/**
	 * Spring AI gives a tool's failure to the model as text, and the run goes on. A mail whose outcome is
	 * unknown ends the run instead (a 502, {@link AgentExceptionHandler}), so that the client retries it and
	 * the retry reconciles the mail.
	 */
	@Bean
	ToolExecutionExceptionProcessor toolExecutionExceptionProcessor() {
		return DefaultToolExecutionExceptionProcessor.builder()
			.rethrowExceptions(List.of(OutcomeUnknownException.class))
			.build();
	}

}
