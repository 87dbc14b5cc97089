package dev.modelgate.sample.billing;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Balances in the database when the application has one (the postgres and mariadb profiles), memory otherwise.
 */
@Configuration(proxyBeanMethods = false)
class BillingConfiguration {

	@Bean
	CreditLedger creditLedger(ObjectProvider<JdbcTemplate> jdbcTemplate) {
		JdbcTemplate jdbc = jdbcTemplate.getIfAvailable();
		return (jdbc != null) ? new JdbcCreditLedger(jdbc) : new InMemoryCreditLedger();
	}

}
