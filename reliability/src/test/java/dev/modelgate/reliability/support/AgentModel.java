package dev.modelgate.reliability.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The agents' model, outside the gateways so that its count survives a kill: an OpenAI-compatible
 * {@code POST /v1/chat/completions} that plays the sample's mock provider (it calls the tools a request
 * offers, one per answer in the order offered, each argument from the user message's line of its name,
 * then answers in text naming the results) and keeps every request's body, to count the calls of a run.
 */
public final class AgentModel implements AutoCloseable {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final HttpServer server;

	private final ExecutorService executor;

	private final List<String> requests = new CopyOnWriteArrayList<>();

	private AgentModel(HttpServer server, ExecutorService executor) {
		this.server = server;
		this.executor = executor;
	}

	public static AgentModel start() {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
			ExecutorService executor = Executors.newCachedThreadPool((task) -> {
				Thread thread = new Thread(task, "agent-model");
				thread.setDaemon(true);
				return thread;
			});
			AgentModel model = new AgentModel(server, executor);
			server.createContext("/v1/chat/completions", model::handle);
			server.setExecutor(executor);
			server.start();
			return model;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot start the agent model", ex);
		}
	}

	/** The value of {@code spring.ai.openai.base-url}: the OpenAI SDK's base URL ends with {@code /v1}. */
	public String baseUrl() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/v1";
	}

	/** How many model calls the runs whose task holds {@code tag} made. */
	public int calls(String tag) {
		return (int) this.requests.stream().filter((body) -> body.contains(tag)).count();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			this.requests.add(body);
			byte[] answer = json.writeValueAsBytes(answer(json.readTree(body)));
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, answer.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(answer);
			}
		}
	}

	private static ObjectNode answer(JsonNode request) {
		JsonNode messages = request.path("messages");
		String prompt = "";
		int called = 0;
		List<String> results = new ArrayList<>();
		for (JsonNode message : messages) {
			String role = message.path("role").asString("");
			if ("user".equals(role)) {
				prompt = message.path("content").asString("");
				called = 0;
				results.clear();
			}
			else if ("assistant".equals(role) && message.path("tool_calls").isArray()) {
				called += message.path("tool_calls").size();
			}
			else if ("tool".equals(role)) {
				results.add(message.path("content").asString(""));
			}
		}
		ObjectNode completion = json.createObjectNode()
			.put("id", "chatcmpl-agent-" + UUID.randomUUID())
			.put("object", "chat.completion")
			.put("created", 1700000000)
			.put("model", request.path("model").asString("agent"));
		ObjectNode choice = completion.putArray("choices").addObject().put("index", 0);
		ObjectNode message = choice.putObject("message").put("role", "assistant");
		JsonNode tools = request.path("tools");
		if (tools.isArray() && called < tools.size()) {
			JsonNode function = tools.get(called).path("function");
			ObjectNode arguments = json.createObjectNode();
			for (String name : function.path("parameters").path("properties").propertyNames()) {
				arguments.put(name, line(prompt, name));
			}
			message.putNull("content");
			message.putArray("tool_calls")
				.addObject()
				.put("id", "call_" + UUID.randomUUID().toString().replace("-", ""))
				.put("type", "function")
				.putObject("function")
				.put("name", function.path("name").asString())
				.put("arguments", json.writeValueAsString(arguments));
			choice.put("finish_reason", "tool_calls");
		}
		else {
			message.put("content", "Done: " + String.join("; ", results) + ".");
			choice.put("finish_reason", "stop");
		}
		completion.putObject("usage").put("prompt_tokens", 10).put("completion_tokens", 5).put("total_tokens", 15);
		return completion;
	}

	private static String line(String prompt, String name) {
		for (String line : prompt.split("\\R")) {
			if (line.startsWith(name + ":")) {
				return line.substring(name.length() + 1).strip();
			}
		}
		return prompt;
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
