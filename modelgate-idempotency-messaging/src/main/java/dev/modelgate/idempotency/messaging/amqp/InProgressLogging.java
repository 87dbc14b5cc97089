package dev.modelgate.idempotency.messaging.amqp;

import org.springframework.util.ErrorHandler;

import dev.modelgate.idempotency.core.IdempotencyInProgressException;

/**
 * A container's error handler that leaves out a duplicate in progress elsewhere: it is an expected,
 * documented refusal that the listener's advice has logged in one line, not a failure whose stack
 * trace an operator needs. Everything else goes to the application's error handler.
 */
final class InProgressLogging implements ErrorHandler {

	private final ErrorHandler delegate;

	InProgressLogging(ErrorHandler delegate) {
		this.delegate = delegate;
	}

	@Override
	public void handleError(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IdempotencyInProgressException) {
				return;
			}
		}
		this.delegate.handleError(failure);
	}

}
