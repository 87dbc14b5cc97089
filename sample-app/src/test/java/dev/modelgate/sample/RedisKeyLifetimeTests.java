package dev.modelgate.sample;

import org.springframework.test.context.ActiveProfiles;

/**
 * {@link KeyLifetimeTests} with the redis profile, on the Redis server at REDIS_HOST:REDIS_PORT
 * (default 127.0.0.1:6379).
 */
@ActiveProfiles("redis")
class RedisKeyLifetimeTests extends KeyLifetimeTests {

}
