CREATE TABLE IF NOT EXISTS consumer_outbox_signups (
  id BIGSERIAL PRIMARY KEY,
  email VARCHAR(200) NOT NULL
);
CREATE TABLE IF NOT EXISTS consumer_outbox_mails (
  id BIGSERIAL PRIMARY KEY,
  message_key VARCHAR(200) NOT NULL
);
