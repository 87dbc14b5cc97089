package dev.modelgate.sample.agent;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/** The agent's runs with the tool calls and model rounds recorded in PostgreSQL (the JDBC store). */
@ActiveProfiles("postgres")
@TestPropertySource(properties = "modelgate.idempotency.jdbc.table-name=modelgate_idempotency_sample_agent")
class PostgresAgentRunTests extends AgentRunTests {

}
