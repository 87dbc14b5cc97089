package dev.modelgate.idempotency.ai;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;

import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps the tools of every {@code List<SyncToolSpecification>} bean (the form in which Spring AI's MCP
 * server auto-configuration publishes the application's tools) with {@link IdempotentMcpTools}, so that
 * a {@code tools/call} with a key in its {@code _meta} runs at most once.
 */
public class IdempotentMcpToolsPostProcessor implements BeanPostProcessor {

	private final UnaryOperator<SyncToolSpecification> wrapper;

	/**
	 * @param wrapper wraps one tool; called when the bean is created, so it may look the template up only
	 * then
	 */
	public IdempotentMcpToolsPostProcessor(UnaryOperator<SyncToolSpecification> wrapper) {
		this.wrapper = Objects.requireNonNull(wrapper, "wrapper must not be null");
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof List<?> list && !list.isEmpty()
				&& list.stream().allMatch(SyncToolSpecification.class::isInstance)) {
			return list.stream().map((tool) -> this.wrapper.apply((SyncToolSpecification) tool)).toList();
		}
		return bean;
	}

}
