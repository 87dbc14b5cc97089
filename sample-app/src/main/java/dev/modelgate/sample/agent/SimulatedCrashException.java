package dev.modelgate.sample.agent;

/**
 * Stands in for the process dying in the middle of a run (a request asked for it with
 * {@code fail_after_step}). It is answered 500, so the idempotency filter releases the run's key and
 * the client can retry the whole run.
 */
public class SimulatedCrashException extends RuntimeException {

	SimulatedCrashException(int step) {
		super("Simulated crash after step " + step);
	}

}
