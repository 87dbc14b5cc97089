package dev.modelgate.sample.agent;

import org.springframework.test.context.ActiveProfiles;

/** The agent's runs with the tool calls and model rounds recorded in Redis (REDIS_HOST, REDIS_PORT). */
@ActiveProfiles("redis")
class RedisAgentRunTests extends AgentRunTests {

}
