package dev.modelgate.consumers.ai;

import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;

/**
 * One idempotent endpoint that runs an agent: a {@code ChatClient} from Spring AI's auto-configured
 * {@code ChatClient.Builder}, with the application's tools. The keyed request is the run (docs/AGENTS.md: its run
 * key is the request's scope), so nothing here names a run key. Each answer carries a fresh id, so a replay is told
 * apart from a second run by its bytes.
 */
@RestController
public class AgentController {

	private final ChatClient chat;

	private final AtomicInteger invocations = new AtomicInteger();

	public AgentController(ChatClient.Builder chatClientBuilder, AgentTools tools) {
		this.chat = chatClientBuilder.defaultTools(tools).build();
	}

	@PostMapping("/agent/runs")
	@Idempotent
	public ResponseEntity<AgentRun> run(@RequestBody Map<String, Object> request) {
		this.invocations.incrementAndGet();
		String answer = this.chat.prompt().user(String.valueOf(request.get("task"))).call().content();
		return ResponseEntity.ok(new AgentRun(UUID.randomUUID().toString(), answer));
	}

	/** How many times the handler has run since the application started. */
	public int invocations() {
		return this.invocations.get();
	}

	public record AgentRun(String id, String answer) {
	}

}
