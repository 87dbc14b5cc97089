package dev.modelgate.idempotency.autoconfigure;

import java.sql.DatabaseMetaData;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyPurger;
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

	private static final Log logger = LogFactory.getLog(JdbcStoreConfiguration.class);

	/**
	 * Applied records are kept as long as completed responses, so that a retry within the response
	 * ttl is told "applied, result unavailable" rather than running the operation again.
	 */
	@Bean
	JdbcIdempotencyStore jdbcIdempotencyStore(ObjectProvider<JdbcTemplate> jdbcTemplate, DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		requirePostgresql(dataSource);
		return new JdbcIdempotencyStore(jdbcTemplate.getIfUnique(() -> new JdbcTemplate(dataSource)),
				properties.getJdbc().getTableName(), properties.getTtl(), properties.getJdbc().isSynchronousCommit());
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcIdempotencySchemaInitializer jdbcIdempotencySchemaInitializer(DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencySchemaInitializer(dataSource, properties.getJdbc().getTableName(),
				DatabaseInitializationMode.valueOf(properties.getJdbc().getInitializeSchema().name()));
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

	/**
	 * Refuses a database the store has no statements for (an embedded H2 would otherwise start and fail
	 * on the first keyed request). A database that cannot be reached now is let through: an outage at
	 * start-up must not stop the application, and requests get 503 until it is back.
	 */
	private static void requirePostgresql(DataSource dataSource) {
		String product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource, DatabaseMetaData::getDatabaseProductName);
		}
		catch (MetaDataAccessException ex) {
			logger.warn("Could not tell which database the idempotency JDBC store is on (it supports PostgreSQL only): "
					+ ex.getMessage());
			return;
		}
		if (!"PostgreSQL".equalsIgnoreCase(product)) {
			throw new UnsupportedIdempotencyDatabaseException(product);
		}
	}

}
