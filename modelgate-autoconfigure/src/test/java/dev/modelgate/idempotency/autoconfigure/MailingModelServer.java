package dev.modelgate.idempotency.autoconfigure;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI-compatible {@code POST /v1/chat/completions} playing a model that asks for
 * {@code send_email} to Ann until it has the tool's result, then answers with that result; each answer
 * gives its tool call a fresh id. Spring AI's real OpenAI chat model talks HTTP to it. No Spring AI API
 * here: the Spring Boot 3.5 line's tests (Spring AI 1) use it too.
 */
final class MailingModelServer implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpServer server;

	final AtomicInteger requests = new AtomicInteger();

	MailingModelServer() {
		try {
			this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		this.server.createContext("/v1/chat/completions", this::complete);
		this.server.start();
	}

	/** Where the server listens, without the {@code /v1} of the API's paths. */
	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	private void complete(HttpExchange exchange) throws IOException {
		try (exchange) {
			this.requests.incrementAndGet();
			JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
			String toolResult = null;
			for (JsonNode message : request.path("messages")) {
				if ("tool".equals(message.path("role").asString())) {
					JsonNode content = message.path("content");
					toolResult = content.isArray() ? content.get(0).path("text").asString() : content.asString();
				}
			}
			ObjectNode completion = JSON.createObjectNode()
				.put("id", "chatcmpl-" + UUID.randomUUID())
				.put("object", "chat.completion")
				.put("created", 1_700_000_000L)
				.put("model", "mock-agent");
			ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
			ObjectNode message = choice.putObject("message").put("role", "assistant");
			if (toolResult == null) {
				message.putNull("content");
				message.putArray("tool_calls")
					.addObject()
					.put("id", "call_" + UUID.randomUUID().toString().replace("-", ""))
					.put("type", "function")
					.putObject("function")
					.put("name", "send_email")
					.put("arguments", "{\"to\":\"ann@example.com\"}");
				choice.put("finish_reason", "tool_calls");
			}
			else {
				message.put("content", toolResult);
				choice.put("finish_reason", "stop");
			}
			byte[] body = JSON.writeValueAsBytes(completion);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
	}

}
