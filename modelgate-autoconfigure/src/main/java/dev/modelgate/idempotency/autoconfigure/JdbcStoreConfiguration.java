package dev.modelgate.idempotency.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyPurger;
import dev.modelgate.idempotency.autoconfigure.JdbcIdempotencySchemaInitializer;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.MarkAppliedTransactionListener;

/**
 * The PostgreSQL store on the application's DataSource, with its schema initializer, the purge of
 * expired records, and the transaction listener that marks records applied in business transactions
 * (Spring Boot registers {@code TransactionExecutionListener} beans on the transaction managers it
 * auto-configures). spring-tx needs no condition of its own: JdbcTemplate cannot work without it.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnBean(DataSource.class)
@ConditionalOnStoreType(StoreType.JDBC)
@ConditionalOnMissingBean(IdempotencyStore.class)
class JdbcStoreConfiguration {

	/**
	 * Applied records are kept as long as completed responses, so that a retry within the response
	 * ttl is told "applied, result unavailable" rather than running the operation again.
	 */
	@Bean
	JdbcIdempotencyStore jdbcIdempotencyStore(ObjectProvider<JdbcTemplate> jdbcTemplate, DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencyStore(jdbcTemplate.getIfUnique(() -> new JdbcTemplate(dataSource)),
				properties.getJdbc().getTableName(), properties.getTtl());
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcIdempotencySchemaInitializer jdbcIdempotencySchemaInitializer(DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencySchemaInitializer(dataSource, properties.getJdbc().getTableName(),
				properties.getJdbc().getInitializeSchema());
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcIdempotencyPurger jdbcIdempotencyPurger(JdbcIdempotencyStore store,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencyPurger(store, properties.getJdbc().getPurgeInterval());
	}

	@Bean
	@ConditionalOnMissingBean
	MarkAppliedTransactionListener idempotencyMarkAppliedTransactionListener(JdbcIdempotencyStore store) {
		return new MarkAppliedTransactionListener(store);
	}

}
