package dev.modelgate.idempotency.messaging;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.Expression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.StringUtils;

import dev.modelgate.idempotency.IdempotentListener;
import dev.modelgate.idempotency.core.internal.AnnotationDurations;
import dev.modelgate.idempotency.core.IdempotencyDecision;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.operation.OperationDefinition;
import dev.modelgate.idempotency.operation.OperationSource;

/**
 * Reads {@link IdempotentListener @IdempotentListener}: key, scope and fingerprint from the message
 * the listener thread is handling ({@link InboundMessages}). Listeners that cannot be annotated get
 * their settings by listener id: the {@code id} of their {@code @KafkaListener} or
 * {@code @RabbitListener}, as written in the annotation.
 */
public class IdempotentListenerSource implements OperationSource {

	private static final SpelExpressionParser PARSER = new SpelExpressionParser();

	private static final Set<String> LISTENER_ANNOTATIONS = Set.of("org.springframework.kafka.annotation.KafkaListener",
			"org.springframework.amqp.rabbit.annotation.RabbitListener");

	private final Map<String, IdempotentListener> byListenerId;

	/** Reads the annotation only. */
	public IdempotentListenerSource() {
		this(Map.of());
	}

	/**
	 * @param byListenerId the settings of listeners without the annotation, by listener id (an
	 * annotation on the method wins)
	 */
	public IdempotentListenerSource(Map<String, IdempotentListener> byListenerId) {
		this.byListenerId = Map.copyOf(byListenerId);
	}

	/**
	 * @param keyHeader the header whose value is the key
	 * @param key SpEL for the key instead, or empty
	 * @param messageId whether the broker's message id is the key
	 * @param scope the key space, or empty for the listener's
	 * @param ttl how long the outcome is kept, or {@code null} for the global setting
	 * @param leaseTtl how long a run holds its key, or {@code null} for the global setting
	 * @return the settings of a listener that is not annotated, as if it were
	 */
	public static IdempotentListener settings(String keyHeader, String key, boolean messageId, String scope,
			@Nullable Duration ttl, @Nullable Duration leaseTtl) {
		return MergedAnnotation.of(IdempotentListener.class,
				Map.of("keyHeader", keyHeader, "key", key, "messageId", messageId, "scope", scope, "ttl",
						(ttl != null) ? ttl.toString() : "", "leaseTtl", (leaseTtl != null) ? leaseTtl.toString() : ""))
			.synthesize();
	}

	@Override
	public @Nullable Annotation find(Method method) {
		Annotation annotation = OperationSource.super.find(method);
		if (annotation != null || this.byListenerId.isEmpty()) {
			return annotation;
		}
		return MergedAnnotations.from(method)
			.stream()
			.filter((listener) -> LISTENER_ANNOTATIONS.contains(listener.getType().getName()))
			.map((listener) -> this.byListenerId.get(listener.getString("id")))
			.filter(Objects::nonNull)
			.findFirst()
			.orElse(null);
	}

	/** Listener runs are told apart from other operations in metrics and logs. */
	@Override
	public String reportedMethod() {
		return IdempotencyDecision.LISTENER;
	}

	@Override
	public Class<? extends Annotation> annotationType() {
		return IdempotentListener.class;
	}

	@Override
	public OperationDefinition definition(Method method, Class<?> targetClass, Annotation found) {
		IdempotentListener annotation = (IdempotentListener) found;
		String methodName = OperationSource.methodName(method, targetClass);
		OperationDefinition.Value scope = StringUtils.hasText(annotation.scope())
				? OperationDefinition.Value.of(annotation.scope())
				: (context) -> methodName + "@" + InboundMessages.current().listener();
		return new OperationDefinition(scope, remembered(key(annotation)), IdempotentListenerSource::fingerprint, null,
				AnnotationDurations.parse(annotation.ttl(), "ttl"),
				AnnotationDurations.parse(annotation.leaseTtl(), "leaseTtl"), false,
				(policy) -> policy.retryOn(annotation.retryOn()).recordOn(annotation.recordOn()),
				AnnotationDurations.parseZeroOrMore(annotation.spentKeyRetention(), "spentKeyRetention"));
	}

	private static OperationDefinition.Value key(IdempotentListener annotation) {
		if (StringUtils.hasText(annotation.key())) {
			Expression expression = PARSER.parseExpression(annotation.key());
			return new OperationDefinition.Value() {
				@Override
				public @Nullable Object get(EvaluationContext context) {
					context.setVariable("message", InboundMessages.current().message());
					return expression.getValue(context);
				}

				@Override
				public String toString() {
					return "expression '" + expression.getExpressionString() + "'";
				}
			};
		}
		if (annotation.messageId()) {
			return (context) -> required(InboundMessages.current().messageId(), "no message id");
		}
		String header = annotation.keyHeader();
		return (context) -> required(InboundMessages.current().headers().apply(header), "no header '" + header + "'");
	}

	/** The key, also kept for the thread's message: the skipped-duplicate log line names its hash. */
	private static OperationDefinition.Value remembered(OperationDefinition.Value key) {
		return new OperationDefinition.Value() {
			@Override
			public @Nullable Object get(EvaluationContext context) {
				Object value = key.get(context);
				if (value != null) {
					InboundMessages.keyed(value.toString());
				}
				return value;
			}

			@Override
			public String toString() {
				return key.toString();
			}
		};
	}

	private static String required(@Nullable String key, String missing) {
		if (key == null || key.isEmpty()) {
			throw new InvalidIdempotencyKeyException("The message has " + missing + ", the key of its idempotent listener");
		}
		return key;
	}

	/** The payload as received: text as is, bytes in Base64, anything else as JSON (by the interceptor). */
	private static @Nullable Object fingerprint(EvaluationContext context) {
		Object payload = InboundMessages.current().payload();
		return (payload instanceof byte[] bytes) ? Base64.getEncoder().encodeToString(bytes) : payload;
	}

}
