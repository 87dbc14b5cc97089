package dev.modelgate.idempotency.boot3.autoconfigure;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.operation.jackson2.Jackson2OperationJson;
import dev.modelgate.idempotency.operation.OperationJson;

/**
 * How {@code @IdempotentOperation} keeps results and writes fingerprints on the Spring Boot 3 line:
 * with the application's Jackson 2 {@code ObjectMapper}.
 */
@Configuration(proxyBeanMethods = false)
class OperationJsonConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OperationJson idempotencyOperationJson(ObjectProvider<ObjectMapper> objectMapper) {
		return new Jackson2OperationJson(objectMapper.getIfAvailable(ObjectMapper::new));
	}

}
