package dev.modelgate.sample.billing;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * PostgreSQL balances when the application has a database (the postgres profile), memory otherwise.
 */
@Configuration(proxyBeanMethods = false)
class BillingConfiguration {

	@Bean
	CreditLedger creditLedger(ObjectProvider<JdbcTemplate> jdbcTemplate) {
		JdbcTemplate jdbc = jdbcTemplate.getIfAvailable();
		return (jdbc != null) ? new JdbcCreditLedger(jdbc) : new InMemoryCreditLedger();
	}

}
