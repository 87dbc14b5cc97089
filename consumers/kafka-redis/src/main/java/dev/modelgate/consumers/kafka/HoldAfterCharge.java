package dev.modelgate.consumers.kafka;

import java.util.concurrent.CountDownLatch;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.stereotype.Component;

/**
 * For the reliability suite only ({@code consumer.hold-after-charge=true}): after the first charge, the listener
 * thread says so and never returns, so the record is neither completed in the store nor its offset committed until
 * the suite kills the process ({@code kill -9}) inside that window.
 */
@Component
@ConditionalOnBooleanProperty("consumer.hold-after-charge")
public class HoldAfterCharge {

	/** The line the suite waits for before it kills the process. */
	static final String HOLDING = "Charged; holding the listener thread before the record completes";

	private static final Logger logger = LoggerFactory.getLogger(HoldAfterCharge.class);

	private final CountDownLatch never = new CountDownLatch(1);

	void hold() {
		logger.info(HOLDING);
		try {
			this.never.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
