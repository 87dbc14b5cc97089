package dev.modelgate.idempotency.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import javax.sql.DataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A DataSource that counts what its callers do on it: connection checkouts, statements prepared or
 * created (JdbcTemplate prepares one per statement it runs), and the calls that make transaction
 * round trips of their own ({@code setAutoCommit(false)}, {@code commit}, {@code rollback}).
 */
final class CountingDataSource extends DelegatingDataSource {

	private final List<String> statements = new ArrayList<>();

	private int connections;

	private int transactionCalls;

	CountingDataSource(DataSource target) {
		super(target);
	}

	@Override
	public Connection getConnection() throws SQLException {
		return counted(super.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return counted(super.getConnection(username, password));
	}

	synchronized Counts take() {
		Counts counts = new Counts(this.connections, List.copyOf(this.statements), this.transactionCalls);
		this.connections = 0;
		this.statements.clear();
		this.transactionCalls = 0;
		return counts;
	}

	private synchronized void count(String method, Object[] args) {
		switch (method) {
			case "prepareStatement", "prepareCall" -> this.statements.add((String) args[0]);
			case "createStatement" -> this.statements.add("(plain statement)");
			case "commit", "rollback" -> this.transactionCalls++;
			case "setAutoCommit" -> {
				if (!((Boolean) args[0])) {
					this.transactionCalls++;
				}
			}
			default -> {
			}
		}
	}

	private Connection counted(Connection connection) {
		synchronized (this) {
			this.connections++;
		}
		return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
				(proxy, method, args) -> {
					count(method.getName(), args);
					try {
						return method.invoke(connection, args);
					}
					catch (InvocationTargetException ex) {
						throw ex.getTargetException();
					}
				});
	}

	/**
	 * What was done since the last {@link #take()}.
	 *
	 * @param connections connections checked out
	 * @param statements the SQL of each statement prepared, in order
	 * @param transactionCalls {@code setAutoCommit(false)}, {@code commit} and {@code rollback} calls
	 */
	record Counts(int connections, List<String> statements, int transactionCalls) {

	}

}
