package dev.modelgate.idempotency.web.servlet;

import javax.sql.DataSource;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import dev.modelgate.idempotency.testsupport.MariaDbTestServer;

/** The MariaDB server as the application's DataSource, for the HTTP suites with MariaDB as the store. */
@TestConfiguration(proxyBeanMethods = false)
class MariaDbDataSource {

	@Bean
	DataSource dataSource() {
		return MariaDbTestServer.dataSource();
	}

}
