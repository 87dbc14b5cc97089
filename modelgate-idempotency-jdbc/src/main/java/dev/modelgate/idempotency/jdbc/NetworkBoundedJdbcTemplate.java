package dev.modelgate.idempotency.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * Runs the statements of store calls that are their own transaction when the store bounds its calls
 * (see {@link JdbcIdempotencyStore.CallLimit}): on a connection of their own (the DataSource behind a
 * wrapper, which no transaction is bound to), each with the network timeout.
 */
final class NetworkBoundedJdbcTemplate extends JdbcTemplate {

	private final int networkTimeoutMillis;

	NetworkBoundedJdbcTemplate(JdbcTemplate template, Duration networkTimeout) {
		super(new DelegatingDataSource(template.getDataSource()));
		setFetchSize(template.getFetchSize());
		setMaxRows(template.getMaxRows());
		setQueryTimeout(template.getQueryTimeout());
		setExceptionTranslator(template.getExceptionTranslator());
		this.networkTimeoutMillis = Math.toIntExact(Math.max(1, networkTimeout.toMillis()));
	}

	@Override
	protected void applyStatementSettings(Statement statement) throws SQLException {
		super.applyStatementSettings(statement);
		// The statement's connection is the pool's (a pool hands out its proxy), so the pool resets it.
		statement.getConnection().setNetworkTimeout(Runnable::run, this.networkTimeoutMillis);
	}

}
