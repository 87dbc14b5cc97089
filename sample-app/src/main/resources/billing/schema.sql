-- Gateways that start together on a fresh database take turns: two concurrent CREATE TABLE IF NOT
-- EXISTS can both try to create, and the loser fails on a catalog index instead of finding the table.
-- The script runs on one connection, so a session lock spans it; the key is arbitrary but fixed.
SELECT pg_advisory_lock(4242001);
CREATE TABLE IF NOT EXISTS credit_balances (
	client VARCHAR(64) PRIMARY KEY,
	balance BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS credit_charges (
	id BIGSERIAL PRIMARY KEY,
	client VARCHAR(64) NOT NULL,
	credits BIGINT NOT NULL,
	charged_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
SELECT pg_advisory_unlock(4242001);
