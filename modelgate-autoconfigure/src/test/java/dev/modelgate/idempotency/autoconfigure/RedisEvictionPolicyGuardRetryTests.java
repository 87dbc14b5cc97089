package dev.modelgate.idempotency.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.modelgate.idempotency.redis.RedisEvictionPolicyReader;
import dev.modelgate.idempotency.testsupport.RedisProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Redis too slow to answer the start-up check (two JVMs starting at once) still gets its eviction
 * WARN: the guard asks again in the background until Redis answers, instead of going blind for the
 * life of the process.
 */
@Tag("store")
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionPolicyGuardRetryTests {

	@Test
	void redisThatAnswersOnlyAfterStartUpGetsItsWarningOnceItAnswers(CapturedOutput output) {
		try (RedisProcess redis = RedisProcess.start("--maxmemory-policy", "allkeys-lru")) {
			LettuceConnectionFactory factory = redis.connectionFactory();
			RedisEvictionPolicyGuard guard = new RedisEvictionPolicyGuard(new RedisEvictionPolicyReader(factory), false,
					Duration.ofMillis(500), Duration.ofMillis(200));
			try {
				factory.getConnection().close();
				redis.freeze();
				guard.afterPropertiesSet();
				assertThat(output).contains("could not be checked at start-up, Redis did not answer")
					.doesNotContain("allkeys-lru");
				redis.resume();
				await().atMost(Duration.ofSeconds(20)).until(() -> output.getOut().contains("allkeys-lru"));
				assertThat(output.getOut()).containsOnlyOnce("allkeys-lru");
			}
			finally {
				redis.resume();
				guard.destroy();
				factory.destroy();
			}
		}
	}

}
