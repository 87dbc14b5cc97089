package dev.modelgate.idempotency.boot4.autoconfigure;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;

import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.ProblemDetailRenderer;

/**
 * Problem responses written with the application's Jackson 3 {@code JsonMapper}: the one bean of the
 * web configuration that differs between the Spring Boot lines (the 3.5 line writes with Jackson 2).
 */
@Configuration(proxyBeanMethods = false)
class ProblemRendererConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyProblemRenderer idempotencyProblemRenderer(ObjectProvider<JsonMapper> jsonMapper) {
		return new ProblemDetailRenderer(
				new JacksonJsonHttpMessageConverter(jsonMapper.getIfAvailable(() -> JsonMapper.builder().build())));
	}

}
