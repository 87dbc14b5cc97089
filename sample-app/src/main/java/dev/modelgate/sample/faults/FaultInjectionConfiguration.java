package dev.modelgate.sample.faults;

import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;
import dev.modelgate.sample.billing.CreditLedger;
import dev.modelgate.sample.provider.ChatCompletionProvider;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Fault injection for the reliability suite, only when {@code modelgate.sample.faults.enabled=true}:
 * the header filter, the provider wrapped so that requests can stop around the upstream call, and the
 * credit ledger wrapped so that they can stop once charged.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("modelgate.sample.faults.enabled")
class FaultInjectionConfiguration {

	/** Ahead of the idempotency filter, so that it wraps the response the client really gets. */
	static final int ORDER = IdempotencyFilter.DEFAULT_ORDER - 5;

	@Bean
	FilterRegistrationBean<FaultInjectionFilter> faultInjectionFilter(FaultInjectionProperties properties) {
		FilterRegistrationBean<FaultInjectionFilter> registration = new FilterRegistrationBean<>(
				new FaultInjectionFilter(properties.getHeaderName(), properties.getPause()));
		registration.setOrder(ORDER);
		return registration;
	}

	@Bean
	static BeanPostProcessor faultInjectingPostProcessor() {
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof ChatCompletionProvider provider) {
					return new FaultInjectingProvider(provider);
				}
				if (bean instanceof CreditLedger ledger) {
					return new FaultInjectingLedger(ledger);
				}
				return bean;
			}
		};
	}

}
