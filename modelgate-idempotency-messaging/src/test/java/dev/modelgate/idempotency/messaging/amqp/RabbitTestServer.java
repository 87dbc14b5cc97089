package dev.modelgate.idempotency.messaging.amqp;

import org.springframework.amqp.rabbit.connection.CachingConnectionFactory;

/**
 * The RabbitMQ server of this machine: {@code RABBITMQ_HOST} (127.0.0.1) and {@code RABBITMQ_PORT}
 * (5672), user guest.
 */
final class RabbitTestServer {

	private RabbitTestServer() {
	}

	static CachingConnectionFactory connectionFactory() {
		CachingConnectionFactory factory = new CachingConnectionFactory(
				System.getenv().getOrDefault("RABBITMQ_HOST", "127.0.0.1"),
				Integer.parseInt(System.getenv().getOrDefault("RABBITMQ_PORT", "5672")));
		factory.setUsername("guest");
		factory.setPassword("guest");
		return factory;
	}

}
