package dev.modelgate.idempotency.boot4.autoconfigure;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.operation.jackson.JacksonOperationJson;
import dev.modelgate.idempotency.operation.OperationJson;

/**
 * How {@code @IdempotentOperation} keeps results and writes fingerprints: with the application's
 * Jackson 3 {@code JsonMapper}. The one bean of the operations configuration that differs between the
 * Spring Boot lines (the 3.5 line uses Jackson 2).
 */
@Configuration(proxyBeanMethods = false)
class OperationJsonConfiguration {

	@Bean
	@ConditionalOnMissingBean
	OperationJson idempotencyOperationJson(ObjectProvider<JsonMapper> jsonMapper) {
		return new JacksonOperationJson(jsonMapper.getIfAvailable(JsonMapper::shared));
	}

}
