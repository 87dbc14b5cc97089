package dev.modelgate.idempotency.ai;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/** Reads {@link IdempotentTool} from the method of a {@code MethodToolCallback}. */
final class AnnotatedToolPolicy implements IdempotentToolPolicy {

	static final AnnotatedToolPolicy INSTANCE = new AnnotatedToolPolicy();

	private static final Logger logger = LoggerFactory.getLogger(AnnotatedToolPolicy.class);

	private final @Nullable Field toolMethod;

	private AnnotatedToolPolicy() {
		Field field = ReflectionUtils.findField(MethodToolCallback.class, "toolMethod", Method.class);
		if (field != null) {
			ReflectionUtils.makeAccessible(field);
		}
		else {
			logger.warn("This Spring AI version's MethodToolCallback has no 'toolMethod' field: @IdempotentTool "
					+ "cannot be read, and only the tools a custom IdempotentToolPolicy names are protected");
		}
		this.toolMethod = field;
	}

	@Override
	public @Nullable ToolProtection protectionOf(ToolCallback tool) {
		if (this.toolMethod == null || !(tool instanceof MethodToolCallback)) {
			return null;
		}
		Method method = (Method) ReflectionUtils.getField(this.toolMethod, tool);
		IdempotentTool annotation = (method != null)
				? AnnotatedElementUtils.findMergedAnnotation(method, IdempotentTool.class) : null;
		return (annotation != null) ? ToolProtection.of(annotation) : null;
	}

}
