package dev.modelgate.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No API key reaches the logs, not even from the container: Tomcat refuses a header line it cannot
 * parse with a 400 and, left to itself, logs the whole line (the token with it) at INFO.
 */
@Tag("boot")
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class CredentialLoggingTests {

	private static final String TOKEN = "sk-never-in-the-logs-7f3a";

	@LocalServerPort
	int port;

	@Test
	void malformedAuthorizationHeaderIsRefusedWithoutItsTokenInTheLogs(CapturedOutput output) throws IOException {
		for (String malformed : new String[] { "\u0001", "\u0000", "\u007f", "\r", "\n x" }) {
			String response = send("Authorization: Bearer " + TOKEN + malformed + "tail");
			assertThat(response).startsWith("HTTP/1.1 400");
		}
		assertThat(output.getAll()).doesNotContain(TOKEN);
	}

	/** Raw bytes over a socket: an HTTP client refuses to send such a header. */
	private String send(String headerLine) throws IOException {
		try (Socket socket = new Socket("127.0.0.1", this.port)) {
			socket.setSoTimeout(10_000);
			byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
			String head = "POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
					+ "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n" + headerLine
					+ "\r\n\r\n";
			OutputStream out = socket.getOutputStream();
			out.write(head.getBytes(StandardCharsets.ISO_8859_1));
			out.write(body);
			out.flush();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			socket.getInputStream().transferTo(response);
			return response.toString(StandardCharsets.ISO_8859_1);
		}
	}

}
