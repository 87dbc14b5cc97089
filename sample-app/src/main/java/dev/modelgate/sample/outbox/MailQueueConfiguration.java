package dev.modelgate.sample.outbox;

import java.util.concurrent.CompletableFuture;

import org.springframework.amqp.core.Binding;
import org.springframework.amqp.core.BindingBuilder;
import org.springframework.amqp.core.DirectExchange;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.support.converter.JacksonJsonMessageConverter;
import org.springframework.amqp.support.converter.MessageConverter;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.modulith.events.EventExternalizationConfiguration;
import org.springframework.modulith.events.support.BrokerRouting;
import org.springframework.modulith.events.support.DelegatingEventExternalizer;

import dev.modelgate.idempotency.outbox.IdempotentEvent;
import dev.modelgate.idempotency.outbox.IdempotentEventHeaders;
import dev.modelgate.sample.faults.OutboxFaults;

/**
 * The {@code outbox} profile's queue: the mail exchange, queue and binding, JSON messages, and the
 * externalization of {@code @Externalized} events to RabbitMQ with their key as the
 * {@code Idempotency-Key} header.
 *
 * <p>The externalizer is Spring Modulith's {@link DelegatingEventExternalizer}, the class its
 * {@code spring-modulith-events-amqp} module registers, sending the way that module does (exchange and
 * routing key from {@code @Externalized}, headers from the externalization configuration): that module
 * is not served for Spring Modulith 2.0.3 by the Maven repository this project is built from here (only up
 * to 1.3.5); an application that has it needs none of this bean. As with Spring
 * Modulith's own externalizers, its publication is completed once the message is handed to the broker
 * (no publisher confirms), and is left incomplete, for a resubmission, when sending fails.
 */
@Configuration(proxyBeanMethods = false)
@Profile("outbox")
class MailQueueConfiguration {

	/** The exchange the mail events are externalized to. */
	static final String EXCHANGE = "modelgate.sample.mail";

	/** Their routing key. */
	static final String ROUTING_KEY = "mail.requested";

	/** The queue the mail consumer reads. */
	static final String QUEUE = "modelgate.sample.mail";

	@Bean
	DirectExchange mailExchange() {
		return new DirectExchange(EXCHANGE);
	}

	/** Durable: a mail not yet acknowledged waits for the next consumer. */
	@Bean
	Queue mailQueue() {
		return new Queue(QUEUE);
	}

	@Bean
	Binding mailBinding(Queue mailQueue, DirectExchange mailExchange) {
		return BindingBuilder.bind(mailQueue).to(mailExchange).with(ROUTING_KEY);
	}

	/** Spring Boot gives it to the RabbitTemplate and to the listener containers. */
	@Bean
	MessageConverter jsonMessageConverter() {
		return new JacksonJsonMessageConverter();
	}

	@Bean
	EventExternalizationConfiguration eventExternalizationConfiguration() {
		return EventExternalizationConfiguration.externalizing()
			.select(EventExternalizationConfiguration.annotatedAsExternalized())
			.headers(IdempotentEvent.class, IdempotentEventHeaders::of)
			.build();
	}

	@Bean
	DelegatingEventExternalizer rabbitEventExternalizer(EventExternalizationConfiguration configuration,
			RabbitTemplate rabbit, ObjectProvider<OutboxFaults> faults) {
		StandardEvaluationContext context = new StandardEvaluationContext();
		return new DelegatingEventExternalizer(configuration, (target, payload) -> {
			faults.ifAvailable(OutboxFaults::beforeExternalization);
			BrokerRouting routing = BrokerRouting.of(target, context);
			rabbit.convertAndSend(routing.getTarget(payload), routing.getKey(payload), payload, (message) -> {
				configuration.getHeadersFor(payload).forEach(message.getMessageProperties()::setHeader);
				return message;
			});
			return CompletableFuture.completedFuture(null);
		});
	}

}
