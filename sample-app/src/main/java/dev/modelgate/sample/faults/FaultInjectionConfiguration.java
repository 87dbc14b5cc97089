package dev.modelgate.sample.faults;

import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;
import dev.modelgate.sample.agent.MailSender;
import dev.modelgate.sample.billing.CreditLedger;
import dev.modelgate.sample.provider.ChatCompletionProvider;

import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Fault injection for the reliability suite, only when {@code modelgate.sample.faults.enabled=true}:
 * the header filter, the provider wrapped so that requests can stop around the upstream call, and the
 * credit ledger wrapped so that they can stop once charged; an agent run can stop between its model
 * rounds and once its mail went out.
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
	ChatClientBuilderCustomizer faultInjectingAdvisor() {
		return (builder) -> builder.defaultAdvisors(new FaultInjectingAdvisor());
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
				if (bean instanceof MailSender sender) {
					return new FaultInjectingMailSender(sender);
				}
				return bean;
			}
		};
	}

}
