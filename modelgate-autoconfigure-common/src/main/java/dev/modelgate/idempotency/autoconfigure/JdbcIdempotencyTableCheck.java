package dev.modelgate.idempotency.autoconfigure;

import java.util.function.Supplier;

import javax.sql.DataSource;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

import dev.modelgate.idempotency.jdbc.JdbcDatabase;

/**
 * Fails start-up when the JDBC store's tables are missing, after every database initializer (the
 * store's own script, Flyway, Liquibase) has run. A database that cannot be reached now is let
 * through with a warning: an outage at start-up must not stop the application, and keyed requests get
 * 503 until it is back.
 */
final class JdbcIdempotencyTableCheck implements InitializingBean {

	private static final Log logger = LogFactory.getLog(JdbcIdempotencyTableCheck.class);

	private final JdbcTemplate jdbcTemplate;

	private final String tableName;

	private final Supplier<JdbcDatabase> database;

	JdbcIdempotencyTableCheck(DataSource dataSource, String tableName, Supplier<JdbcDatabase> database) {
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.tableName = tableName;
		this.database = database;
	}

	@Override
	public void afterPropertiesSet() {
		for (String table : new String[] { this.tableName, this.tableName + "_events" }) {
			try {
				this.jdbcTemplate.query("SELECT 1 FROM " + table + " WHERE 1 = 0", (resultSet) -> null);
			}
			catch (BadSqlGrammarException ex) {
				throw new MissingIdempotencyTableException(this.tableName, table, this.database.get(), ex.getSQLException());
			}
			catch (DataAccessException ex) {
				logger.warn("Could not check that the idempotency table " + table + " exists: " + ex.getMessage());
				return;
			}
		}
	}

}
