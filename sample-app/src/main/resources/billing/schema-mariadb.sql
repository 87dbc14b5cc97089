-- The credit balances on MariaDB (the mariadb profile). No lock needed: gateways that start together
-- take turns on MariaDB's metadata lock, and CREATE TABLE IF NOT EXISTS then finds the table.
CREATE TABLE IF NOT EXISTS credit_balances (
	client VARCHAR(64) PRIMARY KEY,
	balance BIGINT NOT NULL
) ENGINE = InnoDB;
CREATE TABLE IF NOT EXISTS credit_charges (
	id BIGINT AUTO_INCREMENT PRIMARY KEY,
	client VARCHAR(64) NOT NULL,
	credits BIGINT NOT NULL,
	charged_at DATETIME(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)
) ENGINE = InnoDB;
