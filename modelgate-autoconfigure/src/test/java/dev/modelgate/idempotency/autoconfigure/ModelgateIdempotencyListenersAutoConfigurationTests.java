package dev.modelgate.idempotency.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.kafka.autoconfigure.KafkaAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.config.AbstractKafkaListenerContainerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RecordInterceptor;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.util.backoff.FixedBackOff;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.messaging.IdempotentListenerPostProcessor;
import dev.modelgate.idempotency.messaging.IdempotentListenerSource;
import dev.modelgate.idempotency.messaging.amqp.RabbitListenerIdempotency;
import dev.modelgate.idempotency.messaging.kafka.IdempotentRecordInterceptor;
import dev.modelgate.idempotency.messaging.kafka.KafkaListenerIdempotency;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When {@link ModelgateIdempotencyListenersAutoConfiguration} makes {@code @IdempotentListener} work,
 * with Spring Boot's own Kafka and RabbitMQ auto-configuration, and when it backs off.
 */
@Tag("boot")
class ModelgateIdempotencyListenersAutoConfigurationTests {

	private static EmbeddedKafkaKraftBroker broker;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, ModelgateIdempotencyListenersAutoConfiguration.class,
				JacksonAutoConfiguration.class, KafkaAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory");

	@BeforeAll
	static void startKafka() {
		broker = new EmbeddedKafkaKraftBroker(1, 1, "boot-orders", "boot-plain-orders");
		broker.afterPropertiesSet();
	}

	@AfterAll
	static void stopKafka() {
		broker.destroy();
	}

	@Test
	void kafkaListenerRunsOnceThroughSpringBootsKafkaConfiguration() {
		this.contextRunner.withBean(Runs.class).withBean(Orders.class)
			.withBean(DefaultErrorHandler.class, () -> new DefaultErrorHandler(new FixedBackOff(100, 5)))
			.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
					"spring.kafka.consumer.auto-offset-reset=earliest")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdempotentListenerSource.class)
					.hasSingleBean(IdempotentListenerPostProcessor.class)
					.hasSingleBean(KafkaListenerIdempotency.class)
					.doesNotHaveBean(RabbitListenerIdempotency.class);
				assertThat(context.getBean(AbstractKafkaListenerContainerFactory.class).getRecordInterceptor())
					.isInstanceOf(IdempotentRecordInterceptor.class);
				KafkaTemplate<Object, Object> kafka = context.getBean(KafkaTemplate.class);
				Runs orders = context.getBean(Runs.class);
				String key = UUID.randomUUID().toString();
				String marker = UUID.randomUUID().toString();
				for (String sent : new String[] { key, key, marker }) {
					ProducerRecord<Object, Object> record = new ProducerRecord<>("boot-orders", "order " + sent);
					record.headers().add("Idempotency-Key", sent.getBytes(StandardCharsets.UTF_8));
					kafka.send(record).get(30, TimeUnit.SECONDS);
				}
				assertThat(orders.seen(marker).await(30, TimeUnit.SECONDS)).isTrue();
				assertThat(orders.runs(key)).isEqualTo(1);
			});
	}

	@Test
	void listenerThatCannotBeAnnotatedIsConfiguredByItsId() {
		this.contextRunner.withBean(Runs.class).withBean(PlainOrders.class)
			.withPropertyValues("spring.kafka.bootstrap-servers=" + broker.getBrokersAsString(),
					"spring.kafka.consumer.auto-offset-reset=earliest",
					"modelgate.idempotency.listeners.plain-orders.key-header=Order-Id")
			.run((context) -> {
				KafkaTemplate<Object, Object> kafka = context.getBean(KafkaTemplate.class);
				Runs orders = context.getBean(Runs.class);
				String key = UUID.randomUUID().toString();
				String marker = UUID.randomUUID().toString();
				for (String sent : new String[] { key, key, marker }) {
					ProducerRecord<Object, Object> record = new ProducerRecord<>("boot-plain-orders", "order " + sent);
					record.headers().add("Order-Id", sent.getBytes(StandardCharsets.UTF_8));
					kafka.send(record).get(30, TimeUnit.SECONDS);
				}
				assertThat(orders.seen(marker).await(30, TimeUnit.SECONDS)).isTrue();
				assertThat(orders.runs(key)).isEqualTo(1);
			});
	}

	@Test
	void rabbitListenersGetTheHookWhenSpringBootConfiguresRabbit() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(RabbitAutoConfiguration.class))
			.withPropertyValues("spring.rabbitmq.listener.simple.auto-startup=false",
					"modelgate.idempotency.listener-requeue-delay=250ms")
			.run((context) -> assertThat(context).hasSingleBean(RabbitListenerIdempotency.class)
				.hasSingleBean(RabbitListenerEndpointRegistry.class));
	}

	@Test
	void withoutKafkaOrRabbitOnTheClassPathOnlyTheAnnotationIsSupported() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(RecordInterceptor.class,
				RabbitListenerEndpointRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(IdempotentListenerSource.class)
				.doesNotHaveBean(KafkaListenerIdempotency.class)
				.doesNotHaveBean(RabbitListenerIdempotency.class));
	}

	@Test
	void disabledIdempotencyProvidesNothing() {
		this.contextRunner.withPropertyValues("modelgate.idempotency.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdempotentListenerSource.class)
				.doesNotHaveBean(IdempotentListenerPostProcessor.class)
				.doesNotHaveBean(KafkaListenerIdempotency.class));
	}

	/** How often the listeners ran, per key; a bean of its own, since the listeners are proxies. */
	static class Runs {

		private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

		private final Map<String, CountDownLatch> seen = new ConcurrentHashMap<>();

		void ran(String key) {
			this.runs.computeIfAbsent(key, (k) -> new AtomicInteger()).incrementAndGet();
			seen(key).countDown();
		}

		int runs(String key) {
			AtomicInteger runs = this.runs.get(key);
			return (runs != null) ? runs.get() : 0;
		}

		CountDownLatch seen(String key) {
			return this.seen.computeIfAbsent(key, (k) -> new CountDownLatch(1));
		}

	}

	static class Orders {

		private final Runs runs;

		Orders(Runs runs) {
			this.runs = runs;
		}

		@KafkaListener(topics = "boot-orders", groupId = "boot-orders")
		@IdempotentListener
		public void order(String order, @Header("Idempotency-Key") String key) {
			this.runs.ran(key);
		}

	}

	/** A listener of a library: no @IdempotentListener. */
	static class PlainOrders {

		private final Runs runs;

		PlainOrders(Runs runs) {
			this.runs = runs;
		}

		@KafkaListener(id = "plain-orders", topics = "boot-plain-orders", groupId = "boot-plain-orders")
		public void order(String order, @Header("Order-Id") String key) {
			this.runs.ran(key);
		}

	}

}
