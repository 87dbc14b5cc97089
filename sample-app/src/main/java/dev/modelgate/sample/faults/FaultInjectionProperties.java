package dev.modelgate.sample.faults;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Fault injection for the reliability suite: a request that carries the fault header stops at the
 * named {@link FaultPoint} so that a test can kill the process at that exact moment. Off unless
 * enabled; never enable it in production.
 */
@ConfigurationProperties("modelgate.sample.faults")
public class FaultInjectionProperties {

	/**
	 * Whether requests may ask to be paused with the fault header. Off by default.
	 */
	private boolean enabled;

	/**
	 * Request header that names the point to pause at: before-upstream, after-upstream or
	 * after-record.
	 */
	private String headerName = "X-ModelGate-Fault";

	/**
	 * How long a paused request waits before it carries on, in case nobody kills the process.
	 */
	private Duration pause = Duration.ofSeconds(60);

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getHeaderName() {
		return this.headerName;
	}

	public void setHeaderName(String headerName) {
		this.headerName = headerName;
	}

	public Duration getPause() {
		return this.pause;
	}

	public void setPause(Duration pause) {
		this.pause = pause;
	}

}
