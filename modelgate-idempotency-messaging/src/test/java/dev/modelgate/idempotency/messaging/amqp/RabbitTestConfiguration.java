package dev.modelgate.idempotency.messaging.amqp;

import java.util.List;

import org.springframework.amqp.core.QueueBuilder;
import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;
import org.springframework.amqp.rabbit.core.RabbitAdmin;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The RabbitMQ server of this machine ({@code RABBITMQ_HOST}, 127.0.0.1, and {@code RABBITMQ_PORT},
 * 5672, user guest), and the queues of one test class, declared at start and deleted by
 * {@link TestQueues#delete(RabbitAdmin)}.
 */
@Configuration(proxyBeanMethods = false)
class RabbitTestConfiguration {

	@Bean
	CachingConnectionFactory connectionFactory() {
		CachingConnectionFactory factory = new CachingConnectionFactory(
				System.getenv().getOrDefault("RABBITMQ_HOST", "127.0.0.1"),
				Integer.parseInt(System.getenv().getOrDefault("RABBITMQ_PORT", "5672")));
		factory.setUsername("guest");
		factory.setPassword("guest");
		return factory;
	}

	@Bean
	RabbitTemplate rabbitTemplate(CachingConnectionFactory connectionFactory) {
		return new RabbitTemplate(connectionFactory);
	}

	@Bean
	RabbitAdmin rabbitAdmin(CachingConnectionFactory connectionFactory, TestQueues queues) {
		RabbitAdmin admin = new RabbitAdmin(connectionFactory);
		for (String name : queues.names()) {
			admin.declareQueue(QueueBuilder.nonDurable(name).build());
		}
		return admin;
	}

	/** @param names the queues of a test class, unique to its run */
	record TestQueues(List<String> names) {

		void delete(RabbitAdmin admin) {
			this.names.forEach(admin::deleteQueue);
		}

	}

}
