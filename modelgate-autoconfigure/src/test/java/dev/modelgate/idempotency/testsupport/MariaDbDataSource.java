package dev.modelgate.idempotency.testsupport;

import javax.sql.DataSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** The MariaDB test server as the application's DataSource, for the HTTP suites with MariaDB as the store. */
@TestConfiguration(proxyBeanMethods = false)
public class MariaDbDataSource {

	@Bean
	DataSource dataSource() {
		return MariaDbTestServer.dataSource();
	}

}
