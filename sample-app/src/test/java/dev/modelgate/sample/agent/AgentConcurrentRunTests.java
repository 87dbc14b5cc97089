package dev.modelgate.sample.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Primary;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import dev.modelgate.sample.provider.MockChatCompletionProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Duplicates of an agent run sent while it runs: the run is held inside its mail tool (a latch, before
 * the mail goes out) while the duplicates arrive on their own threads; they are refused as in progress,
 * and the run, once let go, sends one mail and opens one ticket in three model rounds.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Import(AgentConcurrentRunTests.HeldMail.class)
class AgentConcurrentRunTests {

	private static final int DUPLICATES = 4;

	private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@LocalServerPort
	int port;

	@Autowired
	MailOutbox outbox;

	@Autowired
	TicketDesk tickets;

	@Autowired
	HeldMailSender heldMail;

	@Autowired
	MockChatCompletionProvider model;

	@DynamicPropertySource
	static void serverPort(DynamicPropertyRegistry registry) {
		AgentServerPort.register(registry);
	}

	@AfterEach
	void stopThreads() {
		this.heldMail.release.countDown();
		this.threads.shutdownNow();
	}

	@Test
	void duplicatesOfARunningRunAreRefusedAndTheRunMailsOnce() throws Exception {
		String key = UUID.randomUUID().toString();
		String recipient = UUID.randomUUID() + "@example.com";
		String task = "Investigate outage " + UUID.randomUUID();
		int modelCallsBefore = this.model.completions();
		this.heldMail.recipient = recipient;

		Future<HttpResponse<String>> first = this.threads.submit(() -> run(key, recipient, task));
		assertThat(this.heldMail.entered.await(30, TimeUnit.SECONDS)).as("the run reached its mail tool").isTrue();
		CountDownLatch go = new CountDownLatch(1);
		List<Future<HttpResponse<String>>> duplicates = new ArrayList<>();
		for (int i = 0; i < DUPLICATES; i++) {
			duplicates.add(this.threads.submit(() -> {
				go.await();
				return run(key, recipient, task);
			}));
		}
		go.countDown();
		for (Future<HttpResponse<String>> duplicate : duplicates) {
			HttpResponse<String> response = duplicate.get(30, TimeUnit.SECONDS);
			assertThat(response.statusCode()).as(response.body()).isEqualTo(409);
			assertThat(JsonMapper.shared().readTree(response.body()).path("error").path("code").asString())
				.isEqualTo("idempotency_request_in_progress");
		}
		assertThat(mailsTo(recipient)).as("mails while the run is held").isEmpty();
		this.heldMail.release.countDown();
		HttpResponse<String> completed = first.get(30, TimeUnit.SECONDS);

		assertThat(completed.statusCode()).as(completed.body()).isEqualTo(200);
		assertThat(mailsTo(recipient)).hasSize(1);
		assertThat(this.tickets.tickets()).filteredOn((ticket) -> ticket.title().endsWith(task)).hasSize(1);
		assertThat(this.heldMail.sends.get()).as("the mail tool ran once").isEqualTo(1);
		assertThat(this.model.completions() - modelCallsBefore).as("model calls").isEqualTo(3);
	}

	private List<SentMail> mailsTo(String recipient) {
		return this.outbox.sent().stream().filter((mail) -> mail.message().to().equals(recipient)).toList();
	}

	private HttpResponse<String> run(String key, String recipient, String task) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/agent/runs"))
			.header("Content-Type", "application/json")
			.header("Authorization", "Bearer agent")
			.header("Idempotency-Key", key)
			.POST(HttpRequest.BodyPublishers.ofString("{\"task\":\"" + task + "\",\"report_to\":\"" + recipient + "\"}"))
			.build();
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** Holds the mail of one recipient before it goes out, until the test lets it go. */
	static class HeldMailSender implements MailSender {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		volatile String recipient;

		final AtomicInteger sends = new AtomicInteger();

		private final DirectMailSender delegate;

		HeldMailSender(MailOutbox outbox) {
			this.delegate = new DirectMailSender(outbox, RestClient.builder(), new AgentProperties());
		}

		@Override
		public SentMail send(String toolKey, MailMessage message) {
			if (message.to().equals(this.recipient)) {
				this.sends.incrementAndGet();
				this.entered.countDown();
				try {
					this.release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					throw new IllegalStateException(ex);
				}
			}
			return this.delegate.send(toolKey, message);
		}

		@Override
		public Optional<SentMail> findByToolKey(String toolKey) {
			return this.delegate.findByToolKey(toolKey);
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class HeldMail {

		@Bean
		@Primary
		HeldMailSender heldMailSender(MailOutbox outbox) {
			return new HeldMailSender(outbox);
		}

	}

}
