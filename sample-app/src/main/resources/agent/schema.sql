-- The outbox profile's mail requests: the agent's mail tool writes one in the transaction that also
-- stores the MailRequested event's publication. As for billing, gateways starting together take turns.
SELECT pg_advisory_lock(4242002);
CREATE TABLE IF NOT EXISTS agent_mail_requests (
	tool_key VARCHAR(255) PRIMARY KEY,
	event_key VARCHAR(64) NOT NULL,
	recipient VARCHAR(320) NOT NULL,
	subject TEXT NOT NULL,
	body TEXT NOT NULL,
	requested_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
SELECT pg_advisory_unlock(4242002);
