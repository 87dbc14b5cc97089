CREATE TABLE IF NOT EXISTS consumer_kafka_bookings (
  id BIGSERIAL PRIMARY KEY,
  message_key VARCHAR(200) NOT NULL,
  payload TEXT NOT NULL
);
