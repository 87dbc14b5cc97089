package dev.modelgate.sample.billing;

import java.sql.DatabaseMetaData;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.support.JdbcUtils;
import org.springframework.jdbc.support.MetaDataAccessException;
import org.springframework.transaction.annotation.Transactional;

/**
 * Balances in PostgreSQL (the postgres profile) or MariaDB (the mariadb profile). Each charge is one transaction on the application's DataSource, the same
 * one the JDBC idempotency store uses, so the starter marks the request's key as applied inside it:
 * if the process dies after this commit, a retry is told the operation was applied instead of
 * charging again; if the request lost its lease, the charge rolls back.
 */
public class JdbcCreditLedger implements CreditLedger {

	private static final String POSTGRESQL_UPSERT = """
			INSERT INTO credit_balances (client, balance) VALUES (?, ?)
			ON CONFLICT (client) DO UPDATE SET balance = credit_balances.balance - ?""";

	private static final String MARIADB_UPSERT = """
			INSERT INTO credit_balances (client, balance) VALUES (?, ?)
			ON DUPLICATE KEY UPDATE balance = balance - ?""";

	private final JdbcTemplate jdbc;

	/** The upsert in the database's dialect, found on the first charge (the database may be down at start). */
	private volatile String upsert;

	public JdbcCreditLedger(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	@Transactional
	public void charge(String client, long credits) {
		this.jdbc.update(upsert(), client, OPENING_BALANCE - credits, credits);
		this.jdbc.update("INSERT INTO credit_charges (client, credits) VALUES (?, ?)", client, credits);
	}

	@Override
	@Transactional(readOnly = true)
	public long balance(String client) {
		return this.jdbc.query("SELECT balance FROM credit_balances WHERE client = ?",
				(rs) -> rs.next() ? rs.getLong(1) : OPENING_BALANCE, client);
	}

	private String upsert() {
		String upsert = this.upsert;
		if (upsert == null) {
			try {
				String product = JdbcUtils.extractDatabaseMetaData(this.jdbc.getDataSource(),
						DatabaseMetaData::getDatabaseProductName);
				upsert = "PostgreSQL".equals(product) ? POSTGRESQL_UPSERT : MARIADB_UPSERT;
			}
			catch (MetaDataAccessException ex) {
				throw new IllegalStateException("Could not tell which database the credit balances are in", ex);
			}
			this.upsert = upsert;
		}
		return upsert;
	}

}
