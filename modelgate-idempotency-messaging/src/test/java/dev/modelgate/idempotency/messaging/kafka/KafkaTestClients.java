package dev.modelgate.idempotency.messaging.kafka;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * Consumer properties for the tests' own consumers and listener containers, written out instead of taken from
 * {@code KafkaTestUtils.consumerProps}, whose signature changed between spring-kafka-test 3.3 and 4.0: these
 * tests also run on Spring Boot 3.5 ({@code spring-boot3/listener-suite}).
 */
final class KafkaTestClients {

	private KafkaTestClients() {
	}

	/** What {@code KafkaTestUtils.consumerProps(brokers, group, false)} gives, as a mutable map. */
	static Map<String, Object> consumerProps(String brokers, String group) {
		Map<String, Object> props = new HashMap<>();
		props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, brokers);
		props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
		props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
		props.put(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG, "10");
		props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, "60000");
		props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
		return props;
	}

}
