package dev.modelgate.sample.agent;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.amqp.rabbit.connection.ConnectionFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.modulith.events.core.EventPublicationRegistry;
import org.springframework.modulith.events.core.EventSerializer;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With the default settings, the fault fields of an agent run are ignored, and the mail goes out directly.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class AgentFaultsDisabledTests {

	@LocalServerPort
	int port;

	@Autowired
	MailOutbox outbox;

	@Autowired
	ApplicationContext context;

	@DynamicPropertySource
	static void serverPort(DynamicPropertyRegistry registry) {
		AgentServerPort.register(registry);
	}

	@Test
	void faultFieldsAreIgnoredUnlessFaultsAreEnabled() throws Exception {
		String recipient = UUID.randomUUID() + "@example.com";
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/v1/agent/runs"))
			.header("Content-Type", "application/json")
			.header("Idempotency-Key", UUID.randomUUID().toString())
			.header("Authorization", "Bearer sk-agent-tests")
			.POST(HttpRequest.BodyPublishers.ofString("{\"task\":\"Check backups\",\"report_to\":\"" + recipient
					+ "\",\"fail_after_step\":1,\"mail_timeout\":true}"))
			.build();

		HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());

		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(this.outbox.sent()).filteredOn((mail) -> mail.message().to().equals(recipient)).hasSize(1);
	}

	/** The default profile mails directly: no broker connection factory, no event publication registry, no database. */
	@Test
	void defaultProfileMailsDirectlyWithoutABrokerOrAnEventRegistry() {
		assertThat(this.context.getBean(MailSender.class)).isInstanceOf(DirectMailSender.class);
		assertThat(this.context.getBeanNamesForType(ConnectionFactory.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(EventPublicationRegistry.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(EventSerializer.class)).isEmpty();
		assertThat(this.context.getBeanNamesForType(DataSource.class)).isEmpty();
	}

}
