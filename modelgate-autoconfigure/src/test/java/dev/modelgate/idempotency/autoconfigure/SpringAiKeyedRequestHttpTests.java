package dev.modelgate.idempotency.autoconfigure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.ai.IdempotentTool;
import dev.modelgate.idempotency.testsupport.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The run is the keyed request: an {@code @Idempotent} endpoint runs an agent on the auto-configured
 * {@code ChatClient.Builder}, with no run key of its own. The first run crashes after its tool ran (500,
 * the key is released); the client's retry with the same key runs the agent again, whose tool call is
 * replayed, not made again. Real HTTP, real Redis, Spring AI's OpenAI chat model against a server of the
 * test's own.
 */
@Tag("boot")
@SpringBootTest(classes = SpringAiKeyedRequestHttpTests.AgentApplication.class,
		webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "modelgate.idempotency.store=redis",
				"spring.autoconfigure.exclude=org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration" })
class SpringAiKeyedRequestHttpTests {

	private static final MailingModelServer MODEL = new MailingModelServer();

	@DynamicPropertySource
	static void redis(DynamicPropertyRegistry registry) {
		registry.add("spring.data.redis.host", RedisTestServer::host);
		registry.add("spring.data.redis.port", RedisTestServer::port);
		registry.add("modelgate.idempotency.redis.key-prefix", () -> "modelgate:test:spring-ai-http:" + UUID.randomUUID() + ":");
	}

	@AfterAll
	static void stopModel() {
		MODEL.close();
	}

	@LocalServerPort
	private int port;

	@Autowired
	private Mailer mailer;

	@Autowired
	private AgentController agent;

	private final HttpClient http = HttpClient.newHttpClient();

	@Test
	void aRetriedRequestRunsTheAgentAgainWithoutSendingTheMailAgain() throws Exception {
		String key = UUID.randomUUID().toString();

		HttpResponse<String> crashed = post(key);
		HttpResponse<String> retried = post(key);
		HttpResponse<String> replayed = post(key);

		assertThat(crashed.statusCode()).isEqualTo(500);
		assertThat(retried.statusCode()).isEqualTo(200);
		assertThat(retried.body()).contains("mail-1-to-ann@example.com");
		assertThat(this.agent.runs).as("the agent ran twice, the retry replayed by the filter").hasValue(2);
		assertThat(replayed.headers().firstValue("Idempotent-Replayed")).hasValue("true");
		assertThat(this.mailer.sent).as("the mail went out once").hasValue(1);

		HttpResponse<String> other = post(UUID.randomUUID().toString());
		assertThat(other.body()).contains("mail-2-to-ann@example.com");
		assertThat(this.mailer.sent).hasValue(2);
	}

	private HttpResponse<String> post(String key) throws Exception {
		return this.http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/agent/runs"))
			.header("Content-Type", "text/plain")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("Mail Ann"))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	@Import({ AgentController.class, Mailer.class })
	static class AgentApplication {

		@Bean
		ChatModel chatModel() {
			return ModelgateIdempotencySpringAiAutoConfigurationTests.openAiChatModel(MODEL);
		}

	}

	@RestController
	static class AgentController {

		final AtomicInteger runs = new AtomicInteger();

		private final ChatClient chat;

		AgentController(ChatClient.Builder chat, Mailer mailer) {
			this.chat = chat.defaultTools(mailer).build();
		}

		@Idempotent
		@PostMapping("/agent/runs")
		String run(@RequestBody String task) {
			String answer = this.chat.prompt().user(task).call().content();
			if (this.runs.incrementAndGet() == 1) {
				throw new IllegalStateException("crashed after the tools ran");
			}
			return answer;
		}

	}

	static class Mailer {

		final AtomicInteger sent = new AtomicInteger();

		@Tool(name = "send_email", description = "Send an e-mail")
		@IdempotentTool
		public String sendEmail(String to) {
			return "mail-" + this.sent.incrementAndGet() + "-to-" + to;
		}

	}

}
