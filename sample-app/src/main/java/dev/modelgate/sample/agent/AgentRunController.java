package dev.modelgate.sample.agent;

import java.util.List;
import java.util.UUID;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.core.DerivedKeys;
import dev.modelgate.idempotency.core.IdempotencyContext;

/**
 * {@code POST /v1/agent/runs}: one agent run per {@code Idempotency-Key}. The run-level key is the
 * filter's: a completed run is replayed, a failed one (5xx) released so that the client can retry it.
 * The keys of the tool calls and model rounds are derived from the scope the filter holds for the
 * request (client, route and key), so a retry of the run gets the same ones, and two clients that
 * happen to pick the same key do not share tool calls.
 *
 * <p>The fault fields are left out of the fingerprint, so that a run that crashed on purpose can be
 * retried without them.
 */
@RestController
public class AgentRunController {

	private final AgentRunner runner;

	private final MailOutbox outbox;

	public AgentRunController(AgentRunner runner, MailOutbox outbox) {
		this.runner = runner;
		this.outbox = outbox;
	}

	@Idempotent(required = true, ignoreFields = { "/fail_after_step", "/mail_timeout" })
	@PostMapping(path = "/v1/agent/runs", consumes = MediaType.APPLICATION_JSON_VALUE)
	public AgentRun run(@RequestBody AgentRunRequest request) {
		request.validate();
		return this.runner.run(runId(), request);
	}

	/** What the mail sink holds, to see that a retried run did not mail twice. */
	@GetMapping("/v1/agent/outbox")
	public List<SentMail> outbox() {
		return this.outbox.sent();
	}

	/**
	 * Only without the filter (idempotency disabled) is there no held scope; each run is then a run of
	 * its own, as nothing else could tell two of them apart.
	 */
	private static String runId() {
		return IdempotencyContext.current()
			.map((held) -> DerivedKeys.uuid(held.scope(), "run"))
			.orElseGet(() -> UUID.randomUUID().toString());
	}

}
