package dev.modelgate.idempotency.autoconfigure;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.amqp.core.AmqpAdmin;
import org.springframework.amqp.core.Queue;
import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.amqp.rabbit.core.RabbitTemplate;
import org.springframework.amqp.rabbit.listener.RabbitListenerEndpointRegistry;
import org.springframework.boot.amqp.autoconfigure.RabbitAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.messaging.handler.annotation.Header;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.autoconfigure.ModelgateIdempotencyListenersAutoConfigurationTests.Runs;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.IdempotencyOutcome;
import dev.modelgate.idempotency.messaging.IdempotentListenerInterceptor;
import dev.modelgate.idempotency.micrometer.MicrometerIdempotencyListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A listener's runs report the same decisions and meters as requests: the decision counter tagged
 * {@code method=LISTENER} and {@code endpoint} the listener's scope, with the tag keys of the requests' series (one
 * Prometheus registry takes both), and a DEBUG line per duplicate acknowledged without running that names the
 * SHA-256 of its key, never the key. On the RabbitMQ server of this machine ({@code RABBITMQ_HOST},
 * {@code RABBITMQ_PORT}, guest/guest), through Spring Boot's RabbitMQ auto-configuration.
 */
@Tag("boot")
class IdempotentListenerObservabilityTests {

	private static final String QUEUE = "modelgate-test-observed-" + UUID.randomUUID();

	/** The listener's scope: its class and method, and the queue it consumes. */
	private static final String SCOPE = Tickets.class.getName() + ".open@" + QUEUE;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ModelgateIdempotencyAutoConfiguration.class,
				ModelgateIdempotencyOperationsAutoConfiguration.class, ModelgateIdempotencyMetricsAutoConfiguration.class,
				ModelgateIdempotencyListenersAutoConfiguration.class, JacksonAutoConfiguration.class,
				RabbitAutoConfiguration.class))
		.withPropertyValues("modelgate.idempotency.store=memory",
				"spring.rabbitmq.host=" + System.getenv().getOrDefault("RABBITMQ_HOST", "127.0.0.1"),
				"spring.rabbitmq.port=" + System.getenv().getOrDefault("RABBITMQ_PORT", "5672"),
				"observed.queue=" + QUEUE)
		.withBean(PrometheusMeterRegistry.class, () -> new PrometheusMeterRegistry(PrometheusConfig.DEFAULT))
		.withBean(Queue.class, () -> new Queue(QUEUE, false))
		.withBean(Runs.class)
		.withBean(Tickets.class);

	private final Logger logger = (Logger) LoggerFactory.getLogger(IdempotentListenerInterceptor.class);

	private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

	private Level level;

	@BeforeEach
	void captureDebugLines() {
		this.level = this.logger.getLevel();
		this.logger.setLevel(Level.DEBUG);
		this.logged.start();
		this.logger.addAppender(this.logged);
	}

	@AfterEach
	void restoreLogger() {
		this.logger.detachAppender(this.logged);
		this.logger.setLevel(this.level);
	}

	@Test
	void duplicateIsCountedAsAListenerDecisionAndLoggedWithItsHashedKey() {
		this.contextRunner.run((context) -> {
			try {
				// A request's decision first, as the web filter reports it, through the same listener bean.
				context.getBean(MicrometerIdempotencyListener.class)
					.onDecision(new IdempotencyDecision(IdempotencyOutcome.ACQUIRED, "POST", "/orders", null));
				RabbitTemplate rabbit = context.getBean(RabbitTemplate.class);
				Runs runs = context.getBean(Runs.class);
				String key = UUID.randomUUID().toString();
				String marker = UUID.randomUUID().toString();
				for (String sent : List.of(key, key, marker)) {
					rabbit.convertAndSend("", QUEUE, "open ticket", (message) -> {
						message.getMessageProperties().setHeader("Idempotency-Key", sent);
						return message;
					});
				}

				// One consumer: the marker runs after both deliveries of the key were decided.
				assertThat(runs.seen(marker).await(30, TimeUnit.SECONDS)).isTrue();
				assertThat(runs.runs(key)).isEqualTo(1);

				PrometheusMeterRegistry registry = context.getBean(PrometheusMeterRegistry.class);
				assertThat(decisions(registry, IdempotencyOutcome.ACQUIRED)).isEqualTo(2);
				assertThat(decisions(registry, IdempotencyOutcome.REPLAYED)).isEqualTo(1);
				assertThat(registry.scrape()).contains(
						"modelgate_idempotency_decisions_total{endpoint=\"/orders\",method=\"POST\",outcome=\"acquired\"} 1.0",
						"modelgate_idempotency_decisions_total{endpoint=\"" + SCOPE
								+ "\",method=\"LISTENER\",outcome=\"replayed\"} 1.0");

				List<String> lines = this.logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
				assertThat(lines).filteredOn((line) -> line.contains(sha256(key))).hasSize(1);
				assertThat(lines).filteredOn((line) -> line.contains(sha256(marker))).isEmpty();
				assertThat(lines).noneMatch((line) -> line.contains(key) || line.contains(marker));
			}
			finally {
				context.getBean(RabbitListenerEndpointRegistry.class).stop();
				context.getBean(AmqpAdmin.class).deleteQueue(QUEUE);
			}
		});
	}

	private static double decisions(PrometheusMeterRegistry registry, IdempotencyOutcome outcome) {
		return registry.get(MicrometerIdempotencyListener.DECISIONS)
			.tags("outcome", outcome.tagValue(), "method", IdempotencyDecision.LISTENER, "endpoint", SCOPE)
			.counter()
			.count();
	}

	private static String sha256(String key) {
		try {
			return HexFormat.of()
				.formatHex(MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static class Tickets {

		private final Runs runs;

		Tickets(Runs runs) {
			this.runs = runs;
		}

		@RabbitListener(queues = "${observed.queue}")
		@IdempotentListener
		public void open(String request, @Header("Idempotency-Key") String key) {
			this.runs.ran(key);
		}

	}

}
