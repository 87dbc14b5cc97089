CREATE TABLE IF NOT EXISTS modelgate_consumer_mariadb_payments (
	id VARCHAR(64) NOT NULL PRIMARY KEY,
	request VARCHAR(1000) NOT NULL
) ENGINE = InnoDB;
