package dev.modelgate.idempotency.autoconfigure;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/** The in-memory store: only when asked for by name, since it does not work across instances. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnStoreType(StoreType.MEMORY)
@ConditionalOnMissingBean(IdempotencyStore.class)
class MemoryStoreConfiguration {

	@Bean
	InMemoryIdempotencyStore inMemoryIdempotencyStore(ModelgateIdempotencyProperties properties) {
		return new InMemoryIdempotencyStore(Clock.systemUTC(), properties.getMemory().getMaxEntries(),
				properties.getMemory().getMaxBytes().toBytes());
	}

}
