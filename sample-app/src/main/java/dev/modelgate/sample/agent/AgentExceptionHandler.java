package dev.modelgate.sample.agent;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.sample.error.OpenAiError;

/**
 * The agent endpoint's own errors, in the gateway's OpenAI shape. Every failure of a run is a 5xx,
 * so the filter releases the run's key and the client can retry the run; the tool calls that
 * completed are not repeated by the retry.
 */
@RestControllerAdvice(assignableTypes = AgentRunController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
public class AgentExceptionHandler {

	private static final Log logger = LogFactory.getLog(AgentExceptionHandler.class);

	@ExceptionHandler(InvalidAgentRunException.class)
	ResponseEntity<OpenAiError> invalid(InvalidAgentRunException ex) {
		return error(HttpStatus.BAD_REQUEST, OpenAiError.of(ex.getMessage(), OpenAiError.INVALID_REQUEST, ex.getCode()));
	}

	@ExceptionHandler(SimulatedCrashException.class)
	ResponseEntity<OpenAiError> crashed(SimulatedCrashException ex) {
		logger.warn(ex.getMessage());
		return error(HttpStatus.INTERNAL_SERVER_ERROR,
				OpenAiError.of(ex.getMessage() + "; retry the run with the same key.", OpenAiError.SERVER_ERROR,
						"simulated_crash"));
	}

	@ExceptionHandler(OutcomeUnknownException.class)
	ResponseEntity<OpenAiError> toolOutcomeUnknown(OutcomeUnknownException ex) {
		logger.warn("A tool call's outcome is unknown: " + ex.getMessage());
		return error(HttpStatus.BAD_GATEWAY, OpenAiError.of(
				"A tool call may have taken effect, but its answer was lost; retry the run with the same key.",
				OpenAiError.UPSTREAM_ERROR, "tool_outcome_unknown"));
	}

	@ExceptionHandler(IdempotencyInProgressException.class)
	ResponseEntity<OpenAiError> toolInProgress(IdempotencyInProgressException ex) {
		return error(HttpStatus.SERVICE_UNAVAILABLE, OpenAiError.of(
				"A tool call of this run is still running elsewhere; retry the run shortly.",
				OpenAiError.SERVER_ERROR, "tool_call_in_progress"));
	}

	private static ResponseEntity<OpenAiError> error(HttpStatus status, OpenAiError body) {
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
	}

}
