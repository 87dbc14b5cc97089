package dev.modelgate.idempotency;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a message listener ({@code @KafkaListener}, {@code @RabbitListener}) at most once per message
 * key, with the state machine of {@link IdempotentOperation}: a redelivered message whose key completed
 * is acknowledged without running the method (its recorded return value is returned again, so a
 * {@code @SendTo} reply is sent again, not recomputed).
 *
 * <pre class="code">
 * &#64;KafkaListener(topics = "orders")
 * &#64;IdempotentListener
 * public void charge(Order order) { ... }
 * </pre>
 *
 * <p>The key is the message's {@code Idempotency-Key} header unless {@link #keyHeader()},
 * {@link #key()} or {@link #messageId()} says otherwise; never the offset. The payload as received
 * (the record's value, the AMQP body) is the fingerprint: the same key with another payload is not
 * run. The scope is {@link #scope()}, else the listener method with the consumer group (Kafka) or
 * queue (RabbitMQ) it consumes for.
 *
 * <p>What a refused message becomes is each broker's own: see {@code docs/MESSAGING.md}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface IdempotentListener {

	/** The header whose value is the key; ignored when {@link #key()} or {@link #messageId()} is set. */
	String keyHeader() default "Idempotency-Key";

	/**
	 * SpEL for the key, evaluated against the listener's arguments (as for
	 * {@link IdempotentOperation#key()}) with the message as received in {@code #message} (a Kafka
	 * {@code ConsumerRecord}, an AMQP {@code Message}). Empty: {@link #keyHeader()}.
	 */
	String key() default "";

	/** Whether the key is the broker's message id (the AMQP {@code message_id} property). */
	boolean messageId() default false;

	/** Name of the key space; empty means the listener method and its consumer group or queue. */
	String scope() default "";

	/** How long the outcome is kept; empty means {@code modelgate.idempotency.ttl}. */
	String ttl() default "";

	/**
	 * How long, once the outcome has expired after {@link #ttl()}, a redelivery is still acknowledged
	 * without running (the key is spent); empty means {@code modelgate.idempotency.spent-key-retention},
	 * {@code "0s"} turns it off for this listener.
	 */
	String spentKeyRetention() default "";

	/** How long a run holds its key without a heartbeat; empty means {@code modelgate.idempotency.lease-ttl}. */
	String leaseTtl() default "";

	/** Failures that release the key so that the broker's redelivery runs the listener again (all, by default). */
	Class<? extends Throwable>[] retryOn() default {};

	/** Failures that are final: recorded, and a redelivery is dead-lettered without running. */
	Class<? extends Throwable>[] recordOn() default {};

}
