package dev.modelgate.sample.billing;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * Balances in PostgreSQL. Each charge is one transaction on the application's DataSource, the same
 * one the JDBC idempotency store uses, so the starter marks the request's key as applied inside it:
 * if the process dies after this commit, a retry is told the operation was applied instead of
 * charging again; if the request lost its lease, the charge rolls back.
 */
public class JdbcCreditLedger implements CreditLedger {

	private final JdbcTemplate jdbc;

	public JdbcCreditLedger(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
	}

	@Override
	@Transactional
	public void charge(String client, long credits) {
		this.jdbc.update("""
				INSERT INTO credit_balances (client, balance) VALUES (?, ?)
				ON CONFLICT (client) DO UPDATE SET balance = credit_balances.balance - ?""", client,
				OPENING_BALANCE - credits, credits);
		this.jdbc.update("INSERT INTO credit_charges (client, credits) VALUES (?, ?)", client, credits);
	}

	@Override
	@Transactional(readOnly = true)
	public long balance(String client) {
		return this.jdbc.query("SELECT balance FROM credit_balances WHERE client = ?",
				(rs) -> rs.next() ? rs.getLong(1) : OPENING_BALANCE, client);
	}

}
