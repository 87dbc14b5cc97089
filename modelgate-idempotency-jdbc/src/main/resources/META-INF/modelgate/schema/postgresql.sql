-- ModelGate idempotency records, PostgreSQL.
-- %TABLE_NAME% is modelgate.idempotency.jdbc.table-name (default modelgate_idempotency, optionally
-- schema.table) and %TABLE_BASE_NAME% the same name without its schema. Replace both when copying
-- this into a Flyway or Liquibase migration.
--
-- state: in_progress (a holder runs the operation), applied (its transaction committed, the outcome
-- is not stored yet) or completed (outcome_kind and outcome hold the outcome as the library encoded
-- it, or are null when it was not kept).
-- lease_expires_at is the holder's deadline while in_progress or applied; expires_at is when the
-- record stops counting and may be purged. Both come from the database clock.
-- A spent key (modelgate.idempotency.spent-key-retention): spent_at is when the answer expires (the
-- ttl); from then until expires_at only the marker counts (spent_status, spent_resource,
-- completed_at), and the purge drops the answer (outcome_kind and outcome set to null). All four are
-- null for a record completed without a retention.
CREATE TABLE IF NOT EXISTS %TABLE_NAME% (
	scope VARCHAR(64) NOT NULL,
	fingerprint VARCHAR(64) NOT NULL,
	state VARCHAR(16) NOT NULL,
	token VARCHAR(64) NOT NULL,
	version BIGINT NOT NULL,
	lease_expires_at TIMESTAMP WITH TIME ZONE,
	outcome_kind VARCHAR(16),
	outcome BYTEA,
	created_at TIMESTAMP WITH TIME ZONE NOT NULL,
	expires_at TIMESTAMP WITH TIME ZONE NOT NULL,
	spent_at TIMESTAMP WITH TIME ZONE,
	spent_status VARCHAR(32),
	spent_resource VARCHAR(2048),
	completed_at TIMESTAMP WITH TIME ZONE,
	CONSTRAINT %TABLE_BASE_NAME%_pk PRIMARY KEY (scope),
	CONSTRAINT %TABLE_BASE_NAME%_state_ck CHECK (state IN ('in_progress', 'applied', 'completed'))
);

CREATE INDEX IF NOT EXISTS %TABLE_BASE_NAME%_expires_at_idx ON %TABLE_NAME% (expires_at);

-- Tables created by 0.1.0 snapshots kept the outcome as response_status, response_headers and
-- response_body; those columns are left alone (they are nullable and no longer written).
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS outcome_kind VARCHAR(16);
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS outcome BYTEA;

-- Tables created before spent keys get their columns.
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS spent_at TIMESTAMP WITH TIME ZONE;
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS spent_status VARCHAR(32);
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS spent_resource VARCHAR(2048);
ALTER TABLE %TABLE_NAME% ADD COLUMN IF NOT EXISTS completed_at TIMESTAMP WITH TIME ZONE;

-- The spent keys whose answer the purge still has to drop; a row leaves the index when it is dropped.
CREATE INDEX IF NOT EXISTS %TABLE_BASE_NAME%_spent_at_idx ON %TABLE_NAME% (spent_at) WHERE outcome_kind IS NOT NULL;

-- Recorded streams (Server-Sent Events): seq 0 is a stream's head, 1..n its events, each the exact
-- bytes sent. Rows are keyed by the token of the attempt that wrote them and read joined on the
-- record's current token, so an attempt that took an expired record over starts an empty stream.
-- Release, deletion and the purge delete a record's events with it (no foreign key: the records
-- table can then be dropped and created again on its own).
CREATE TABLE IF NOT EXISTS %TABLE_NAME%_events (
	scope VARCHAR(64) NOT NULL,
	token VARCHAR(64) NOT NULL,
	seq BIGINT NOT NULL,
	data BYTEA NOT NULL,
	CONSTRAINT %TABLE_BASE_NAME%_events_pk PRIMARY KEY (scope, token, seq)
);
