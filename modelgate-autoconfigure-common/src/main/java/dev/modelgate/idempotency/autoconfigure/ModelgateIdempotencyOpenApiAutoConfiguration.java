package dev.modelgate.idempotency.autoconfigure;

import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.openapi.IdempotencyOperationCustomizer;
import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.ProblemDetailRenderer;

/**
 * When springdoc-openapi is on the class path, documents the {@code Idempotency-Key} header and the
 * filter's problem responses on every {@code @Idempotent} operation.
 */
@AutoConfiguration(after = ModelgateIdempotencyAutoConfiguration.class,
		beforeName = "org.springdoc.core.configuration.SpringDocConfiguration")
@ConditionalOnClass(GlobalOperationCustomizer.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnBooleanProperty(name = "modelgate.idempotency.enabled", matchIfMissing = true)
public class ModelgateIdempotencyOpenApiAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyOperationCustomizer idempotencyOperationCustomizer(ModelgateIdempotencyProperties properties,
			ObjectProvider<IdempotencyProblemRenderer> renderer) {
		// A renderer of the application's own (the sample app's OpenAI-style errors) has its own body
		// format, which this cannot know: then only statuses and codes are documented.
		boolean problemDetails = renderer.getIfAvailable() instanceof ProblemDetailRenderer;
		IdempotencyOperationCustomizer customizer = new IdempotencyOperationCustomizer(properties.getHeaderName(),
				properties.getKeyMaxLength(), properties.getMismatchStatus(), problemDetails);
		customizer.setStatusPath(properties.getStatusPath());
		return customizer;
	}

}
