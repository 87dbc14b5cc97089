package dev.modelgate.idempotency.ai;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI-compatible {@code POST /v1/chat/completions} that plays a model driving an agent, so that
 * Spring AI's real OpenAI chat model talks HTTP to it:
 * <ol start="0">
 * <li>the first answer asks for {@code send_email} to Ann, {@code send_email} to Bob and
 * {@code lookup_order};</li>
 * <li>once those results are in, it asks for {@code create_ticket};</li>
 * <li>then it answers with every tool result it was given, in order, joined by {@code |}.</li>
 * </ol>
 * Each answer gives its tool calls fresh ids, as a real model does on a re-run. The arguments may be
 * changed between runs ({@link #annText}, {@link #ticketTitle}) to play a model that words a call
 * differently. A request with {@code "stream": true} is answered as OpenAI streams: server-sent
 * {@code chat.completion.chunk} events, the text in several pieces, each tool call in its own chunk, then
 * {@code [DONE]}.
 */
final class MockOpenAiServer implements AutoCloseable {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger firstRoundRequests = new AtomicInteger();

	private final List<String> toolResults = new CopyOnWriteArrayList<>();

	volatile String annText = "Weekly report";

	volatile String ticketTitle = "Follow up";

	/** Whether the next final answer fails with a 500 (a model round that was not paid for). */
	volatile boolean failNextAnswer;

	/** Whether the next streamed final answer breaks off after its first chunk, the connection cut. */
	volatile boolean breakNextStream;

	MockOpenAiServer() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/v1/chat/completions", this::complete);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	/** Where the server listens, without the {@code /v1} of the API's paths. */
	String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort();
	}

	/** How many chat completions were asked for. */
	int requests() {
		return this.requests.get();
	}

	/** How many chat completions were asked for with no tool result yet: how many runs began. */
	int firstRoundRequests() {
		return this.firstRoundRequests.get();
	}

	/** Every tool result the model was sent, in the order they came. */
	List<String> toolResults() {
		return this.toolResults;
	}

	private void complete(HttpExchange exchange) throws IOException {
		try (exchange) {
			this.requests.incrementAndGet();
			JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
			int rounds = 0;
			StringBuilder results = new StringBuilder();
			for (JsonNode message : request.path("messages")) {
				if ("assistant".equals(message.path("role").asString()) && message.path("tool_calls").size() > 0) {
					rounds++;
				}
				if ("tool".equals(message.path("role").asString())) {
					String content = content(message);
					if (!results.isEmpty()) {
						results.append('|');
					}
					results.append(content);
					if (rounds == countRounds(request)) {
						this.toolResults.add(content);
					}
				}
			}
			ObjectNode completion = JSON.createObjectNode();
			completion.put("id", "chatcmpl-" + UUID.randomUUID());
			completion.put("object", "chat.completion");
			completion.put("created", 1_700_000_000L);
			completion.put("model", request.path("model").asString("mock"));
			ObjectNode choice = completion.putArray("choices").addObject();
			choice.put("index", 0);
			choice.putNull("logprobs");
			ObjectNode message = choice.putObject("message");
			message.put("role", "assistant");
			message.putNull("refusal");
			if (rounds == 0) {
				this.firstRoundRequests.incrementAndGet();
				message.putNull("content");
				ArrayNode calls = message.putArray("tool_calls");
				call(calls, "send_email", JSON.createObjectNode().put("to", "ann@example.com").put("text", this.annText));
				call(calls, "send_email", JSON.createObjectNode().put("to", "bob@example.com").put("text", "Weekly report"));
				call(calls, "lookup_order", JSON.createObjectNode().put("id", "42"));
				choice.put("finish_reason", "tool_calls");
			}
			else if (rounds == 1) {
				message.putNull("content");
				call(message.putArray("tool_calls"), "create_ticket",
						JSON.createObjectNode().put("title", this.ticketTitle));
				choice.put("finish_reason", "tool_calls");
			}
			else if (this.failNextAnswer) {
				this.failNextAnswer = false;
				byte[] body = "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}"
					.getBytes(StandardCharsets.UTF_8);
				exchange.getResponseHeaders().set("Content-Type", "application/json");
				exchange.sendResponseHeaders(500, body.length);
				exchange.getResponseBody().write(body);
				return;
			}
			else {
				message.put("content", results.toString());
				choice.put("finish_reason", "stop");
			}
			if (request.path("stream").asBoolean(false)) {
				stream(exchange, completion, choice);
				return;
			}
			completion.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
			byte[] body = JSON.writeValueAsBytes(completion);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		}
	}

	/** The completion as server-sent chunks: a broken stream declares more bytes than it sends. */
	private void stream(HttpExchange exchange, ObjectNode completion, ObjectNode choice) throws IOException {
		boolean breakOff = this.breakNextStream && "stop".equals(choice.path("finish_reason").asString());
		if (breakOff) {
			this.breakNextStream = false;
		}
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, breakOff ? 1_000_000 : 0);
		OutputStream out = exchange.getResponseBody();
		JsonNode message = choice.path("message");
		List<ObjectNode> deltas = new java.util.ArrayList<>();
		if (message.path("tool_calls").size() > 0) {
			int index = 0;
			for (JsonNode call : message.path("tool_calls")) {
				ObjectNode delta = JSON.createObjectNode();
				if (index == 0) {
					delta.put("role", "assistant");
				}
				ObjectNode part = delta.putArray("tool_calls").addObject();
				part.put("index", index++);
				part.setAll((ObjectNode) call);
				deltas.add(delta);
			}
		}
		else {
			String text = message.path("content").asString();
			for (int from = 0; from < text.length(); from += 16) {
				ObjectNode delta = JSON.createObjectNode();
				if (from == 0) {
					delta.put("role", "assistant");
				}
				delta.put("content", text.substring(from, Math.min(text.length(), from + 16)));
				deltas.add(delta);
			}
		}
		deltas.add(JSON.createObjectNode());
		for (int i = 0; i < deltas.size(); i++) {
			ObjectNode chunk = JSON.createObjectNode();
			chunk.put("id", completion.path("id").asString());
			chunk.put("object", "chat.completion.chunk");
			chunk.put("created", completion.path("created").asLong());
			chunk.put("model", completion.path("model").asString());
			ObjectNode part = chunk.putArray("choices").addObject();
			part.put("index", 0);
			part.set("delta", deltas.get(i));
			part.putNull("logprobs");
			if (i == deltas.size() - 1) {
				part.put("finish_reason", choice.path("finish_reason").asString());
			}
			else {
				part.putNull("finish_reason");
			}
			out.write(("data: " + JSON.writeValueAsString(chunk) + "\n\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			if (breakOff) {
				// Fewer bytes than declared: closing the exchange cuts the connection.
				return;
			}
		}
		out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
		out.close();
	}

	private static int countRounds(JsonNode request) {
		int rounds = 0;
		for (JsonNode message : request.path("messages")) {
			if ("assistant".equals(message.path("role").asString()) && message.path("tool_calls").size() > 0) {
				rounds++;
			}
		}
		return rounds;
	}

	/** The text of a message's content, a string or an array of text parts. */
	private static String content(JsonNode message) {
		JsonNode content = message.path("content");
		if (content.isArray()) {
			StringBuilder text = new StringBuilder();
			for (JsonNode part : content) {
				text.append(part.path("text").asString());
			}
			return text.toString();
		}
		return content.asString();
	}

	private static void call(ArrayNode calls, String name, ObjectNode arguments) {
		ObjectNode call = calls.addObject();
		call.put("id", "call_" + UUID.randomUUID().toString().replace("-", ""));
		call.put("type", "function");
		call.putObject("function").put("name", name).put("arguments", JSON.writeValueAsString(arguments));
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
