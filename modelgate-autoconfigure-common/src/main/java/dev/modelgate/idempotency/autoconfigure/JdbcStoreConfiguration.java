package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import com.zaxxer.hikari.HikariDataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.util.ClassUtils;

import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyProperties.StoreType;
import dev.modelgate.idempotency.core.IdempotencyStore;
import dev.modelgate.idempotency.jdbc.JdbcDatabase;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyPurger;
import dev.modelgate.idempotency.jdbc.JdbcIdempotencyStore;
import dev.modelgate.idempotency.jdbc.MarkAppliedTransactionListener;

/**
 * The JDBC store on the application's DataSource (PostgreSQL, MariaDB or MySQL, with the statements
 * of the database its metadata names), with its schema initializer, the purge of
 * expired records, and the transaction listener that marks records applied in business transactions
 * (Spring Boot registers {@code TransactionExecutionListener} beans on the transaction managers it
 * auto-configures). spring-tx needs no condition of its own: JdbcTemplate cannot work without it.
 */
@Configuration(proxyBeanMethods = false)
@Import(DatabaseInitializationDependencyConfigurer.class)
@ConditionalOnClass(JdbcTemplate.class)
@ConditionalOnBean(DataSource.class)
@ConditionalOnStoreType(StoreType.JDBC)
@ConditionalOnMissingBean(IdempotencyStore.class)
class JdbcStoreConfiguration {

	private static final Log logger = LogFactory.getLog(JdbcStoreConfiguration.class);

	private static final boolean HIKARI_PRESENT = ClassUtils.isPresent("com.zaxxer.hikari.HikariDataSource",
			JdbcStoreConfiguration.class.getClassLoader());

	/**
	 * Applied records are kept as long as completed responses, so that a retry within the response
	 * ttl is told "applied, result unavailable" rather than running the operation again.
	 */
	@Bean
	JdbcIdempotencyStore jdbcIdempotencyStore(ObjectProvider<JdbcTemplate> jdbcTemplate, DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		JdbcDatabase database = database(dataSource);
		JdbcIdempotencyStore.CallLimit callLimit = callLimit(dataSource, database, properties.getOperationTimeout());
		return new JdbcIdempotencyStore(database, jdbcTemplate.getIfUnique(() -> new JdbcTemplate(dataSource)),
				properties.getJdbc().getTableName(), properties.getTtl(), properties.getJdbc().isSynchronousCommit(),
				callLimit);
	}

	/**
	 * How the store can bound its own calls within {@code operation-timeout}, so that they run on the
	 * request thread: only on a running HikariCP pool whose checkout, validation included, leaves each
	 * statement at least 250 ms of half of it; {@code null} (each call handed to a thread that can be abandoned) on any
	 * other DataSource, a pool that can be suspended, or one not started (the database was down).
	 */
	private static JdbcIdempotencyStore.@Nullable CallLimit callLimit(DataSource dataSource, JdbcDatabase database,
			Duration operationTimeout) {
		JdbcIdempotencyStore.CallLimit limit = (HIKARI_PRESENT)
				? Hikari.callLimit(dataSource, operationTimeout, database.statementsPerCall()) : null;
		if (limit != null) {
			logger.info("Idempotency JDBC store calls run on the request thread: a connection checkout waits at most "
					+ limit.connectionWait().toMillis() + " ms and each statement " + limit.networkTimeout().toMillis()
					+ " ms for the database");
		}
		else {
			logger.info("Idempotency JDBC store calls are handed to a thread each, bounded by operation-timeout ("
					+ operationTimeout.toMillis() + " ms): the DataSource does not bound them itself (see "
					+ "spring.datasource.hikari.connection-timeout in docs/STORES.md)");
		}
		return limit;
	}

	@Bean
	@ConditionalOnMissingBean
	JdbcIdempotencySchemaInitializer jdbcIdempotencySchemaInitializer(DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencySchemaInitializer(dataSource, database(dataSource), properties.getJdbc().getTableName(),
				DatabaseInitializationMode.valueOf(properties.getJdbc().getInitializeSchema().name()));
	}

	/**
	 * Runs after every database initializer (this store's script, Flyway, Liquibase), so that a table
	 * they create is there when it looks.
	 */
	@Bean
	@DependsOnDatabaseInitialization
	JdbcIdempotencyTableCheck jdbcIdempotencyTableCheck(DataSource dataSource,
			ModelgateIdempotencyProperties properties) {
		return new JdbcIdempotencyTableCheck(dataSource, properties.getJdbc().getTableName(),
				() -> database(dataSource));
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
	 * The database whose statements the store runs, from the DataSource's metadata (MySQL
	 * Connector/J on a MariaDB server names the product MySQL and the version MariaDB: MariaDB).
	 * Refuses a database the store has no statements for (an embedded H2 would otherwise start and
	 * fail on the first keyed request). A database that cannot be reached now is let through, as the
	 * one its pool's JDBC URL names, else PostgreSQL: an outage at start-up must not stop the
	 * application, and requests get 503 until it is back.
	 */
	private static JdbcDatabase database(DataSource dataSource) {
		String[] product;
		try {
			product = JdbcUtils.extractDatabaseMetaData(dataSource,
					(metaData) -> new String[] { metaData.getDatabaseProductName(), metaData.getDatabaseProductVersion() });
		}
		catch (MetaDataAccessException ex) {
			JdbcDatabase guess = (HIKARI_PRESENT) ? Hikari.databaseOfUrl(dataSource) : JdbcDatabase.POSTGRESQL;
			logger.warn("Could not tell which database the idempotency JDBC store is on (it supports "
					+ JdbcDatabase.supported() + "); using the statements for " + guess.productName() + ": "
					+ ex.getMessage());
			return guess;
		}
		return JdbcDatabase.of(product[0], product[1])
			.orElseThrow(() -> new UnsupportedIdempotencyDatabaseException(product[0]));
	}

	/** Kept apart so that nothing loads HikariCP when it is absent. */
	private static final class Hikari {

		/** The database a HikariCP pool's JDBC URL names, PostgreSQL for any other DataSource or URL. */
		static JdbcDatabase databaseOfUrl(DataSource dataSource) {
			String url = (dataSource instanceof HikariDataSource hikari) ? hikari.getJdbcUrl() : null;
			if (url != null && url.startsWith("jdbc:mariadb:")) {
				return JdbcDatabase.MARIADB;
			}
			return (url != null && url.startsWith("jdbc:mysql:")) ? JdbcDatabase.MYSQL : JdbcDatabase.POSTGRESQL;
		}

		/** Statements get at least this long: HikariCP's own floor for its timeouts. */
		private static final Duration SHORTEST_NETWORK_TIMEOUT = Duration.ofMillis(250);

		/**
		 * A checkout waits at most the pool's {@code connection-timeout} for a connection, and then
		 * its {@code validation-timeout} to check one that has been idle; HikariCP opens connections
		 * on threads of its own, never the caller's. A call is at most {@code statementsPerCall}
		 * statements (two on PostgreSQL, three on MariaDB and MySQL), each with its checkout, so each
		 * statement gets that share of {@code operation-timeout} less the checkout.
		 */
		static JdbcIdempotencyStore.@Nullable CallLimit callLimit(DataSource dataSource, Duration operationTimeout,
				int statementsPerCall) {
			if (!(dataSource instanceof HikariDataSource hikari) || hikari.isAllowPoolSuspension()
					|| hikari.getHikariPoolMXBean() == null) {
				return null;
			}
			Duration checkout = Duration.ofMillis(hikari.getConnectionTimeout())
				.plus(Duration.ofMillis(hikari.getValidationTimeout()));
			Duration network = operationTimeout.dividedBy(statementsPerCall).minus(checkout);
			return (network.compareTo(SHORTEST_NETWORK_TIMEOUT) >= 0)
					? new JdbcIdempotencyStore.CallLimit(checkout, network) : null;
		}

	}

}
