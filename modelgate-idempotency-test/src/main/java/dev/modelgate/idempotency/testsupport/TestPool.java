package dev.modelgate.idempotency.testsupport;

import java.sql.SQLException;
import java.util.function.Supplier;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A HikariCP pool shared by all tests of the run, created on first use and closed at exit, behind a
 * DataSource that is not {@link AutoCloseable}, so that an application context that is given it as a
 * bean cannot close it under the other tests.
 */
final class TestPool {

	private final Supplier<HikariConfig> config;

	private DataSource dataSource;

	/** @param config the pool's settings, asked for on first use */
	TestPool(Supplier<HikariConfig> config) {
		this.config = config;
	}

	synchronized DataSource dataSource() {
		if (this.dataSource == null) {
			HikariDataSource pool = new HikariDataSource(this.config.get());
			Runtime.getRuntime().addShutdownHook(new Thread(pool::close));
			this.dataSource = new DelegatingDataSource(pool);
		}
		return this.dataSource;
	}

	HikariDataSource hikari() {
		try {
			return dataSource().unwrap(HikariDataSource.class);
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
