package dev.modelgate.idempotency.autoconfigure;

import java.time.Clock;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.core.InMemoryIdempotencyStore;

/**
 * The in-memory store, which does not work across instances: only when asked for by name, or, in a
 * test slice under {@code store=auto}, when neither the Redis nor the JDBC store was configured
 * (imported after them, so a slice that has Redis or a DataSource still gets that store).
 */
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
