package dev.modelgate.sample.outbox;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.amqp.rabbit.annotation.RabbitListener;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Profile;
import org.springframework.messaging.handler.annotation.Header;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.outbox.IdempotentEventHeaders;
import dev.modelgate.sample.agent.MailOutbox;
import dev.modelgate.sample.faults.OutboxFaults;

/**
 * Delivers the queued mails to the {@link MailOutbox}, at most once per {@code Idempotency-Key} header
 * (the event's derived key): a message published again, or redelivered by the broker after the consumer
 * failed before its ack, is acknowledged without running. {@code @Transactional} on the JDBC store: the
 * record is marked applied in the listener's transaction (the transactional inbox), so a consumer that
 * fails after that commit does not deliver again.
 */
@Component
@Profile("outbox")
class MailConsumer {

	private final MailOutbox outbox;

	private final ObjectProvider<OutboxFaults> faults;

	private final Map<String, AtomicInteger> runs = new ConcurrentHashMap<>();

	MailConsumer(MailOutbox outbox, ObjectProvider<OutboxFaults> faults) {
		this.outbox = outbox;
		this.faults = faults;
	}

	@RabbitListener(queues = MailQueueConfiguration.QUEUE)
	@IdempotentListener
	@Transactional
	public void deliver(MailRequested request, @Header(IdempotentEventHeaders.IDEMPOTENCY_KEY) String key) {
		this.runs.computeIfAbsent(key, (ignored) -> new AtomicInteger()).incrementAndGet();
		this.outbox.deliver(key, request.message());
		this.faults.ifAvailable(OutboxFaults::inConsumerTransaction);
	}

	/** How many times the consumer ran for {@code key} since the application started. */
	int runs(String key) {
		AtomicInteger count = this.runs.get(key);
		return (count != null) ? count.get() : 0;
	}

}
