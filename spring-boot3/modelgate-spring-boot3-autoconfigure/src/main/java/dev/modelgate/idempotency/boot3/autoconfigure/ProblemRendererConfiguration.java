package dev.modelgate.idempotency.boot3.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;

import dev.modelgate.idempotency.web.servlet.IdempotencyProblemRenderer;
import dev.modelgate.idempotency.web.servlet.ProblemDetailRenderer;

/**
 * Problem responses written with the application's Jackson 2 {@code ObjectMapper}: the Spring Boot 3
 * line's variant of the one web bean that differs between the lines.
 */
@Configuration(proxyBeanMethods = false)
class ProblemRendererConfiguration {

	@Bean
	@ConditionalOnMissingBean
	IdempotencyProblemRenderer idempotencyProblemRenderer(ObjectProvider<ObjectMapper> objectMapper) {
		return new ProblemDetailRenderer(
				new MappingJackson2HttpMessageConverter(objectMapper.getIfAvailable(ObjectMapper::new)));
	}

}
