package dev.modelgate.idempotency.ai;

import java.util.Objects;
import java.util.function.Function;

import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Wraps every {@link ToolCallingManager} bean of the application in an
 * {@link IdempotentToolCallingManager}, so that the {@code ChatClient}s built on it (Spring AI's
 * auto-configured {@code ChatClient.Builder} hands the bean to its tool calling advisor) run the protected
 * tool calls of a keyed run at most once. The bean keeps its name; it is then known by the
 * {@code ToolCallingManager} interface, not by its class.
 */
public class IdempotentToolCallingManagerPostProcessor implements BeanPostProcessor {

	private final Function<ToolCallingManager, IdempotentToolCallingManager> wrapper;

	/**
	 * @param wrapper wraps a manager bean; called when the bean is created, so it may look the template
	 * and the policy up only then
	 */
	public IdempotentToolCallingManagerPostProcessor(
			Function<ToolCallingManager, IdempotentToolCallingManager> wrapper) {
		this.wrapper = Objects.requireNonNull(wrapper, "wrapper must not be null");
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ToolCallingManager manager && !(bean instanceof IdempotentToolCallingManager)) {
			return this.wrapper.apply(manager);
		}
		return bean;
	}

}
