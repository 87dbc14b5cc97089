package dev.modelgate.idempotency.web.testapp;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.slf4j.MDC;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.servlet.IdempotencyFilter;

/** Handlers that show what the filter leaves for the application's own logging. */
@RestController
public class ObservabilityController {

	private static final Log logger = LogFactory.getLog(ObservabilityController.class);

	private final Invocations invocations;

	ObservabilityController(Invocations invocations) {
		this.invocations = invocations;
	}

	/** Answers with the scope the MDC holds while the handler runs. */
	@PostMapping("/mdc")
	@Idempotent
	String mdc(@RequestBody(required = false) String body) {
		this.invocations.increment("mdc");
		logger.info("mdc handler running");
		return "scope=" + MDC.get(IdempotencyFilter.MDC_SCOPE_KEY);
	}

}
