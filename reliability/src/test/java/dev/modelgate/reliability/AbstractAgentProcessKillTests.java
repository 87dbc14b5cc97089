package dev.modelgate.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.modelgate.reliability.support.AgentModel;
import dev.modelgate.reliability.support.Answer;
import dev.modelgate.reliability.support.Gateway;
import dev.modelgate.reliability.support.RecordingMailApi;
import dev.modelgate.reliability.support.Report;
import dev.modelgate.reliability.support.SampleApp;
import dev.modelgate.reliability.support.Sleep;
import dev.modelgate.reliability.support.StoreServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code kill -9} in the middle of an agent run ({@code POST /v1/agent/runs}, the sample's Spring AI agent:
 * three model rounds, a mail, a ticket). A gateway with fault injection on holds a run at one moment, the
 * suite kills it with SIGKILL, and the same run is retried on another gateway that shares the store until
 * it is served. The model, the mail API and the ticket API are outside the gateways, so their counts
 * survive the kill: each counts the calls of the run. Subclasses say which store.
 */
@Tag("process")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractAgentProcessKillTests {

	/** Short, so that a retry takes over quickly; heartbeats renew it every third. */
	static final Duration LEASE = Duration.ofSeconds(2);

	private final Gateway gateway = new Gateway(Duration.ofSeconds(60));

	private final Map<Window, String> rows = new EnumMap<>(Window.class);

	private final Map<Window, SampleApp> victims = new EnumMap<>(Window.class);

	private AgentModel model;

	private RecordingMailApi mailApi;

	private RecordingMailApi ticketApi;

	private StoreServer store;

	private SampleApp survivor;

	protected abstract StoreServer startStore(String scenario);

	protected abstract String scenario();

	@BeforeAll
	void startGateways() {
		this.model = AgentModel.start();
		this.mailApi = RecordingMailApi.start();
		this.ticketApi = RecordingMailApi.start();
		this.store = startStore(scenario());
		List<SampleApp.Builder> builders = new ArrayList<>();
		builders.add(gateway("survivor"));
		for (Window window : Window.values()) {
			builders.add(gateway("victim-" + window.faultPoint).faults());
		}
		List<SampleApp> apps = SampleApp.startAll(builders);
		this.survivor = apps.get(0);
		for (Window window : Window.values()) {
			this.victims.put(window, apps.get(1 + window.ordinal()));
		}
		this.gateway.warmUp(apps);
	}

	private SampleApp.Builder gateway(String name) {
		return SampleApp.builder(scenario(), name)
			.store(this.store)
			.property("modelgate.idempotency.lease-ttl", LEASE.toMillis() + "ms")
			.property("spring.ai.openai.base-url", this.model.baseUrl())
			// A round that fails fails the run; the suite counts every model call.
			.property("spring.ai.openai.max-retries", "0")
			.property("modelgate.sample.agent.mail-api", this.mailApi.baseUrl() + "/mails")
			.property("modelgate.sample.agent.ticket-api", this.ticketApi.baseUrl() + "/mails");
	}

	@AfterAll
	void reportAndStop() {
		if (!this.rows.isEmpty()) {
			Report.write(scenario(), """
					Lease %s (renewed every third). Each row: one agent run (three model rounds, a mail, a ticket) held
					at the moment, its gateway killed with SIGKILL, the same run retried every 100 ms on another gateway
					sharing the %s store. The model, the mail API and the ticket API count outside the gateways.

					| killed | the killed gateway's client got | first retry | retries answered 409 | served with | model calls | mails (distinct keys) | tickets |
					|---|---|---|---|---|---|---|---|
					""".formatted(LEASE, this.store.name()) + String.join("\n", this.rows.values()));
		}
		if (this.survivor != null) {
			this.survivor.close();
		}
		this.victims.values().forEach(SampleApp::close);
		if (this.store != null) {
			this.store.close();
		}
		for (AutoCloseable server : new AutoCloseable[] { this.model, this.mailApi, this.ticketApi }) {
			try {
				if (server != null) {
					server.close();
				}
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}
	}

	@Test
	void killAfterAModelRoundWasRecordedAsksTheModelOnlyForTheOtherRounds() {
		Outcome outcome = killAt(Window.AFTER_MODEL_ROUND);
		assertThat(outcome.served().status()).isEqualTo(200);
		assertThat(outcome.served().isReplay()).isFalse();
		assertThat(outcome.modelCalls()).as("each of the three rounds once").isEqualTo(3);
		assertThat(outcome.mails()).hasSize(1);
		assertThat(outcome.tickets()).hasSize(1);
	}

	/**
	 * The window that remains: the mail went out and its record did not complete, so the takeover sends it
	 * again, with the same key (a mail API that deduplicates on it sends one).
	 */
	@Test
	void killAfterTheMailsEffectBeforeItsRecordMailsAgainWithTheSameKey() {
		Outcome outcome = killAt(Window.AFTER_TOOL_EFFECT);
		assertThat(outcome.served().status()).isEqualTo(200);
		assertThat(outcome.modelCalls()).isEqualTo(3);
		assertThat(outcome.mails()).hasSize(2);
		assertThat(outcome.mails()).containsOnly(outcome.mails().get(0));
		assertThat(outcome.tickets()).hasSize(1);
	}

	@Test
	void killAfterTheMailsRecordMailsOnce() {
		Outcome outcome = killAt(Window.AFTER_TOOL_RECORD);
		assertThat(outcome.served().status()).isEqualTo(200);
		assertThat(outcome.served().isReplay()).isFalse();
		assertThat(outcome.modelCalls()).isEqualTo(3);
		assertThat(outcome.mails()).hasSize(1);
		assertThat(outcome.tickets()).hasSize(1);
	}

	@Test
	void killBeforeTheResponseReplaysTheRunAtOnce() {
		Outcome outcome = killAt(Window.AFTER_RECORD);
		assertThat(Gateway.isConnectionLoss(outcome.victimAnswer())).as("the killed gateway sent nothing").isTrue();
		assertThat(outcome.firstRetry().status()).isEqualTo(200);
		assertThat(outcome.firstRetry().isReplay()).isTrue();
		assertThat(outcome.modelCalls()).isEqualTo(3);
		assertThat(outcome.mails()).hasSize(1);
		assertThat(outcome.tickets()).hasSize(1);
	}

	private Outcome killAt(Window window) {
		SampleApp victim = this.victims.get(window);
		String tag = "agent-" + window.faultPoint + "-" + UUID.randomUUID();
		String body = "{\"task\":\"" + tag + "\",\"report_to\":\"" + tag + "@example.com\"}";
		int mailsBefore = this.mailApi.keys().size();
		int ticketsBefore = this.ticketApi.keys().size();
		CompletableFuture<Answer> victimCall = this.gateway.postAsync(victim.agentRuns(), tag, body, "X-ModelGate-Fault",
				window.faultPoint);
		victim.process().awaitLog("request paused at " + window.faultPoint, Duration.ofSeconds(30));
		long killedAt = System.nanoTime();
		victim.kill();
		Answer victimAnswer = victimCall.join();
		List<Answer> retries = new ArrayList<>();
		Answer answer;
		do {
			if (!retries.isEmpty()) {
				Sleep.millis(100);
			}
			answer = this.gateway.postAsync(this.survivor.agentRuns(), tag, body).join();
			retries.add(answer);
		}
		while (answer.status() == 409 && System.nanoTime() - killedAt < LEASE.multipliedBy(10).toNanos());
		Answer confirmation = this.gateway.postAsync(this.survivor.agentRuns(), tag, body).join();
		assertThat(confirmation.isReplay()).as("the run, once served, is replayed: %s", confirmation).isTrue();
		List<String> mails = this.mailApi.keys().subList(mailsBefore, this.mailApi.keys().size());
		List<String> tickets = this.ticketApi.keys().subList(ticketsBefore, this.ticketApi.keys().size());
		Outcome outcome = new Outcome(victimAnswer, retries, this.model.calls(tag), mails, tickets);
		this.rows.put(window, outcome.row(window));
		return outcome;
	}

	/** The moments of an agent run the suite kills at, in the order a run passes them. */
	enum Window {

		AFTER_MODEL_ROUND("after-model-round", "after the first model round was recorded"),

		AFTER_TOOL_EFFECT("after-tool-effect", "after the mail went out, before its record"),

		AFTER_TOOL_RECORD("after-tool-record", "after the mail's record"),

		AFTER_RECORD("after-record", "after the run's record, before the response");

		private final String faultPoint;

		private final String description;

		Window(String faultPoint, String description) {
			this.faultPoint = faultPoint;
			this.description = description;
		}

	}

	/**
	 * What one kill showed.
	 *
	 * @param victimAnswer what the killed gateway's client got
	 * @param retries the retries until one was not 409, in order
	 * @param modelCalls the model calls of the run, the killed gateway's and the survivor's
	 * @param mails the keys the mail API got for the run, in order
	 * @param tickets the keys the ticket API got for the run, in order
	 */
	record Outcome(Answer victimAnswer, List<Answer> retries, int modelCalls, List<String> mails, List<String> tickets) {

		Answer firstRetry() {
			return this.retries.get(0);
		}

		Answer served() {
			return this.retries.get(this.retries.size() - 1);
		}

		String row(Window window) {
			return "| %s | %s | %s | %d | %s | %d | %d (%d) | %d |".formatted(window.description,
					Gateway.isConnectionLoss(this.victimAnswer) ? "connection closed, no response" : this.victimAnswer.toString(),
					brief(firstRetry()), this.retries.stream().filter((answer) -> answer.status() == 409).count(),
					brief(served()), this.modelCalls, this.mails.size(), this.mails.stream().distinct().count(),
					this.tickets.size());
		}

		private static String brief(Answer answer) {
			if (answer.status() == 200) {
				return answer.isReplay() ? "200 replayed" : "200 (ran)";
			}
			return answer.status() + " " + answer.code();
		}

	}

}
