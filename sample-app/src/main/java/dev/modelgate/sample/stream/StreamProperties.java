package dev.modelgate.sample.stream;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the gateway relays streamed completions to its clients.
 */
@ConfigurationProperties("modelgate.sample.stream")
public class StreamProperties {

	/**
	 * Longest a stream may last; past it the client gets an error event and the stream is closed.
	 */
	private Duration timeout = Duration.ofMinutes(5);

	/**
	 * Most streams relayed at once, each on a thread of its own; one more is refused with 503
	 * too_many_streams.
	 */
	private int maxConcurrent = 64;

	public Duration getTimeout() {
		return this.timeout;
	}

	public void setTimeout(Duration timeout) {
		this.timeout = timeout;
	}

	public int getMaxConcurrent() {
		return this.maxConcurrent;
	}

	public void setMaxConcurrent(int maxConcurrent) {
		this.maxConcurrent = maxConcurrent;
	}

}
