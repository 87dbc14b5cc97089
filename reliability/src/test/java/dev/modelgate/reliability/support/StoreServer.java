package dev.modelgate.reliability.support;

import java.util.List;
import java.util.Map;

/**
 * A store the gateway can be pointed at: what to pass to a sample-app process so that it keeps its
 * idempotency records there.
 */
public interface StoreServer extends AutoCloseable {

	/** A short name for reports, such as {@code redis} or {@code redis-cluster}. */
	String name();

	/** Command-line arguments for the gateway. */
	List<String> gatewayArguments();

	/** Environment variables for the gateway. */
	default Map<String, String> gatewayEnvironment() {
		return Map.of();
	}

	@Override
	void close();

}
