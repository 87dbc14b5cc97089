package dev.modelgate.sample.error;

import java.util.Locale;

import dev.modelgate.sample.chat.InvalidChatRequestException;
import dev.modelgate.sample.provider.UpstreamFailureException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Answers every error of the gateway's own as an OpenAI error, so that OpenAI SDKs raise their usual
 * exceptions: a bad request is 400, a failed provider 502, anything unexpected 500. Spring MVC's own
 * errors (unparsable JSON, wrong content type, unknown path) keep their status.
 */
@RestControllerAdvice
public class OpenAiExceptionHandler extends ResponseEntityExceptionHandler {

	private static final Log logger = LogFactory.getLog(OpenAiExceptionHandler.class);

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
