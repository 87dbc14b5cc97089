package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;

/**
 * The RabbitMQ server of this machine ({@code RABBITMQ_HOST}, 127.0.0.1, and {@code RABBITMQ_PORT}, 5672,
 * guest/guest), as the suite publishes to it and reads its queues; unlike Kafka's in-process broker, consumer
 * processes started one after the other share it.
 */
public final class Rabbit implements AutoCloseable {

	private final Connection connection;

	private final Channel channel;

	private Rabbit(Connection connection, Channel channel) {
		this.connection = connection;
		this.channel = channel;
	}

	public static Rabbit connect() {
		ConnectionFactory factory = new ConnectionFactory();
		factory.setHost(host());
		factory.setPort(port());
		factory.setUsername("guest");
		factory.setPassword("guest");
		try {
			Connection connection = factory.newConnection("modelgate-reliability");
			return new Rabbit(connection, connection.createChannel());
		}
		catch (IOException | TimeoutException ex) {
			throw new IllegalStateException("RabbitMQ at " + host() + ":" + port()
					+ " does not answer; the suite needs it (set RABBITMQ_HOST and RABBITMQ_PORT) and never skips", ex);
		}
	}

	static String host() {
		return System.getenv().getOrDefault("RABBITMQ_HOST", "127.0.0.1");
	}

	static int port() {
		return Integer.parseInt(System.getenv().getOrDefault("RABBITMQ_PORT", "5672"));
	}

	/** Publishes a persistent text message with an {@code Idempotency-Key} header to {@code queue}. */
	public void publish(String queue, String key, String payload) {
		AMQP.BasicProperties properties = new AMQP.BasicProperties.Builder().contentType("text/plain")
			.deliveryMode(2)
			.headers(Map.of("Idempotency-Key", key))
			.build();
		try {
			this.channel.basicPublish("", queue, properties, payload.getBytes(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The messages of {@code queue} ready for a consumer (delivered but not acknowledged ones are not). */
	public int ready(String queue) {
		try {
			return this.channel.queueDeclarePassive(queue).getMessageCount();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public void deleteQueue(String queue) {
		try {
			this.channel.queueDelete(queue);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		try {
			this.connection.close();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
