-- ModelGate idempotency records, MariaDB (10.6 or later) and MySQL (8.0 or later), InnoDB.
-- %TABLE_NAME% is modelgate.idempotency.jdbc.table-name (default modelgate_idempotency, optionally
-- database.table) and %TABLE_BASE_NAME% the same name without its database. Replace both when
-- copying this into a Flyway or Liquibase migration.
--
-- state, lease_expires_at, expires_at and the spent-key columns (spent_at, spent_status,
-- spent_resource, completed_at) mean what they mean in postgresql.sql. The times are UTC
-- from the database clock (UTC_TIMESTAMP(6)) in DATETIME(6) columns: microseconds, and unlike
-- TIMESTAMP neither converted by the session time zone nor given an automatic ON UPDATE default.
-- Identifiers and hashes compare byte for byte (utf8mb4_bin), not case-insensitively as the
-- default collations would.
CREATE TABLE IF NOT EXISTS %TABLE_NAME% (
	scope VARCHAR(64) NOT NULL,
	fingerprint VARCHAR(64) NOT NULL,
	state VARCHAR(16) NOT NULL,
	token VARCHAR(64) NOT NULL,
	version BIGINT NOT NULL,
	lease_expires_at DATETIME(6) NULL,
	outcome_kind VARCHAR(16) NULL,
	outcome LONGBLOB NULL,
	created_at DATETIME(6) NOT NULL,
	expires_at DATETIME(6) NOT NULL,
	spent_at DATETIME(6) NULL,
	spent_status VARCHAR(32) NULL,
	spent_resource VARCHAR(2048) NULL,
	completed_at DATETIME(6) NULL,
	PRIMARY KEY (scope),
	INDEX %TABLE_BASE_NAME%_expires_at_idx (expires_at),
	INDEX %TABLE_BASE_NAME%_spent_at_idx (spent_at),
	CONSTRAINT %TABLE_BASE_NAME%_state_ck CHECK (state IN ('in_progress', 'applied', 'completed'))
) ENGINE = InnoDB DEFAULT CHARACTER SET = utf8mb4 COLLATE = utf8mb4_bin;

-- Recorded streams, as in postgresql.sql: seq 0 is a stream's head, 1..n its events.
CREATE TABLE IF NOT EXISTS %TABLE_NAME%_events (
	scope VARCHAR(64) NOT NULL,
	token VARCHAR(64) NOT NULL,
	seq BIGINT NOT NULL,
	data LONGBLOB NOT NULL,
	PRIMARY KEY (scope, token, seq)
) ENGINE = InnoDB DEFAULT CHARACTER SET = utf8mb4 COLLATE = utf8mb4_bin;
