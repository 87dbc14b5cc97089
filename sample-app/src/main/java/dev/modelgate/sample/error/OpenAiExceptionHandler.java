package dev.modelgate.sample.error;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.RejectedExecutionException;

import dev.modelgate.idempotency.jdbc.LeaseLostException;
import dev.modelgate.sample.chat.InvalidChatRequestException;
import dev.modelgate.sample.provider.UpstreamFailureException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.multipart.MultipartException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every error of the gateway's own as an OpenAI error, so that OpenAI SDKs raise their usual
 * exceptions: a bad request is 400, a failed provider 502, an unreachable database 503, anything
 * unexpected 500. Spring MVC's own errors (unparsable JSON, wrong content type, unknown path) keep
 * their status.
 */
@RestControllerAdvice
public class OpenAiExceptionHandler extends ResponseEntityExceptionHandler {

	private static final Log logger = LogFactory.getLog(OpenAiExceptionHandler.class);

	private final String retryAfterSeconds;

	/**
	 * @param retryAfter the hint sent with the library's own 409 and 503, sent with this class's too
	 */
	public OpenAiExceptionHandler(@Value("${modelgate.idempotency.retry-after:1s}") Duration retryAfter) {
		this.retryAfterSeconds = Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
	}

	@ExceptionHandler(InvalidChatRequestException.class)
	ResponseEntity<OpenAiError> invalidChatRequest(InvalidChatRequestException ex) {
		return error(HttpStatus.BAD_REQUEST, OpenAiError.of(ex.getMessage(), OpenAiError.INVALID_REQUEST, ex.getCode()));
	}

	@ExceptionHandler(UpstreamFailureException.class)
	ResponseEntity<OpenAiError> upstreamFailure(UpstreamFailureException ex) {
		logger.warn("Upstream provider failed: " + ex.getMessage(), ex.getCause());
		return error(HttpStatus.BAD_GATEWAY,
				OpenAiError.of(ex.getMessage(), OpenAiError.UPSTREAM_ERROR, ex.getReason().code()));
	}

	/**
	 * This attempt's lease ran out while it ran (a long pause, or the database out of reach for longer
	 * than the lease), so the JDBC store refused to mark its transaction applied and the transaction
	 * rolled back: the operation is not applied twice. Another attempt with the same key holds it or
	 * finished it, and a retry gets that attempt's answer; the client is told so, as for any request
	 * still in progress, rather than that the gateway failed.
	 */
	@ExceptionHandler(LeaseLostException.class)
	ResponseEntity<OpenAiError> leaseLost(LeaseLostException ex) {
		logger.warn(ex.getMessage());
		return retryable(HttpStatus.CONFLICT, OpenAiError.of(
				"Another attempt with this Idempotency-Key took over while this one ran; this one was rolled back. "
						+ "Retry to get the result.",
				OpenAiError.INVALID_REQUEST, "idempotency_request_in_progress"));
	}

	/**
	 * The database (credits, and with the JDBC store the idempotency records) could not be reached or
	 * failed mid-transaction. The key is released, as for any 5xx, and whether anything committed is
	 * for the idempotency record to tell: a retry runs again only if the transaction did not commit.
	 */
	@ExceptionHandler({ DataAccessResourceFailureException.class, TransientDataAccessException.class,
			RecoverableDataAccessException.class, CannotCreateTransactionException.class,
			TransactionSystemException.class })
	ResponseEntity<OpenAiError> databaseUnavailable(Exception ex) {
		logger.warn("Database unavailable: " + ex.getMessage());
		return retryable(HttpStatus.SERVICE_UNAVAILABLE, OpenAiError.of(
				"The gateway's database is unavailable; retry later.", OpenAiError.SERVER_ERROR, "service_unavailable"));
	}

	/** Every relay thread is busy with a stream (modelgate.sample.stream.max-concurrent). */
	@ExceptionHandler(RejectedExecutionException.class)
	ResponseEntity<OpenAiError> tooManyStreams(RejectedExecutionException ex) {
		logger.warn("Stream refused: " + ex.getMessage());
		return retryable(HttpStatus.SERVICE_UNAVAILABLE, OpenAiError.of(
				"The gateway is relaying as many streams as it can; retry later.", OpenAiError.SERVER_ERROR,
				"too_many_streams"));
	}

	/**
	 * A multipart body that cannot be parsed fails before any handler is chosen (one over the size
	 * limit is answered 413 by the base class).
	 */
	@ExceptionHandler(MultipartException.class)
	ResponseEntity<OpenAiError> unreadableMultipart(MultipartException ex) {
		return error(HttpStatus.BAD_REQUEST, OpenAiError.of("The multipart request body could not be read.",
				OpenAiError.INVALID_REQUEST, "invalid_body"));
	}

	@ExceptionHandler(Exception.class)
	ResponseEntity<OpenAiError> unexpected(Exception ex) {
		logger.error("Chat completion failed", ex);
		return error(HttpStatus.INTERNAL_SERVER_ERROR,
				OpenAiError.of("The gateway failed to process the request.", OpenAiError.SERVER_ERROR, "internal_error"));
	}

	@Override
	protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
			HttpHeaders headers, HttpStatusCode status, WebRequest request) {
		OpenAiError body = OpenAiError.of("The request body is not valid JSON.", OpenAiError.INVALID_REQUEST,
				"invalid_json");
		return handleExceptionInternal(ex, body, headers, status, request);
	}

	@Override
	protected ResponseEntity<Object> handleExceptionInternal(Exception ex, Object body, HttpHeaders headers,
			HttpStatusCode statusCode, WebRequest request) {
		Object openAiBody = (body instanceof OpenAiError) ? body
				: OpenAiError.of(message(ex, body), OpenAiError.typeFor(statusCode), code(statusCode));
		HttpHeaders jsonHeaders = new HttpHeaders();
		jsonHeaders.addAll(headers);
		jsonHeaders.setContentType(MediaType.APPLICATION_JSON);
		return super.handleExceptionInternal(ex, openAiBody, jsonHeaders, statusCode, request);
	}

	private static ResponseEntity<OpenAiError> error(HttpStatus status, OpenAiError body) {
		return ResponseEntity.status(status).contentType(MediaType.APPLICATION_JSON).body(body);
	}

	private ResponseEntity<OpenAiError> retryable(HttpStatus status, OpenAiError body) {
		return ResponseEntity.status(status)
			.contentType(MediaType.APPLICATION_JSON)
			.header(HttpHeaders.RETRY_AFTER, this.retryAfterSeconds)
			.body(body);
	}

	private static String message(Exception ex, Object body) {
		if (body instanceof ProblemDetail problem && problem.getDetail() != null) {
			return problem.getDetail();
		}
		return ex.getMessage();
	}

	/** A code derived from the status, {@code unsupported_media_type} for 415, for errors with none of their own. */
	private static String code(HttpStatusCode statusCode) {
		HttpStatus status = HttpStatus.resolve(statusCode.value());
		String phrase = (status != null) ? status.getReasonPhrase() : "error " + statusCode.value();
		return phrase.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
	}

}
