package dev.modelgate.consumers.ai;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import org.springframework.util.ClassUtils;

/**
 * An OpenAI-compatible {@code POST .../chat/completions} on the JDK's own HTTP server (no test dependency beyond
 * the Spring Boot test starter), playing a model that drives the agent, so that the application's real Spring AI
 * OpenAI chat model talks HTTP to it:
 * <ol>
 * <li>a request without tool results (a run begins) is answered with three tool calls: {@code send_email},
 * {@code create_ticket} and {@code lookup_order}, each time with fresh call ids, as a real model does on a
 * re-run;</li>
 * <li>a request with tool results is answered with a final text: every tool result it was sent, in order, joined
 * by {@code " | "}; or, once after {@link #failNextFinalRound()}, with a 500, as an overloaded model does.</li>
 * </ol>
 * It answers by hand-written JSON and reads the requests as text, so the same source runs on both Spring Boot
 * lines (Jackson 3 and Jackson 2).
 */
final class MockOpenAiModel implements AutoCloseable {

	/** The results {@link AgentTools} return: a prefix and 32 hex digits. */
	private static final Pattern TOOL_RESULT = Pattern
		.compile("(?:sent-mail|opened-ticket|looked-up-order)-[0-9a-f]{32}");

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger requests = new AtomicInteger();

	private final AtomicInteger firstRounds = new AtomicInteger();

	private final AtomicBoolean failNextFinalRound = new AtomicBoolean();

	private final List<String> finalRoundToolResults = new CopyOnWriteArrayList<>();

	private MockOpenAiModel() throws IOException {
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", this::answer);
		this.server.setExecutor(this.executor);
		this.server.start();
	}

	static MockOpenAiModel start() {
		try {
			return new MockOpenAiModel();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The value of {@code spring.ai.openai.base-url} for the Spring AI on the class path: Spring AI 2 talks through
	 * the OpenAI SDK, whose base URL ends with {@code /v1}; Spring AI 1 adds {@code /v1/chat/completions} itself.
	 */
	String springAiBaseUrl() {
		String root = "http://127.0.0.1:" + this.server.getAddress().getPort();
		return ClassUtils.isPresent("com.openai.client.OpenAIClient", null) ? root + "/v1" : root;
	}

	/** How many chat completions were asked for, answered or failed. */
	int requests() {
		return this.requests.get();
	}

	/** How many chat completions were asked for without tool results: how many runs of the agent began. */
	int firstRounds() {
		return this.firstRounds.get();
	}

	/** The tool results each final round was sent, one string per request, joined by {@code " | "}. */
	List<String> finalRoundToolResults() {
		return List.copyOf(this.finalRoundToolResults);
	}

	/** The next request with tool results is answered 500, once. */
	void failNextFinalRound() {
		this.failNextFinalRound.set(true);
	}

	private void answer(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!"POST".equals(exchange.getRequestMethod())
					|| !exchange.getRequestURI().getPath().equals("/v1/chat/completions")) {
				exchange.sendResponseHeaders(404, -1);
				return;
			}
			this.requests.incrementAndGet();
			String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
			String message;
			String finishReason;
			if (!request.contains("\"tool_call_id\"")) {
				this.firstRounds.incrementAndGet();
				message = "{\"role\":\"assistant\",\"content\":null,\"refusal\":null,\"tool_calls\":["
						+ call("send_email", "{\\\"to\\\":\\\"ann@example.com\\\",\\\"text\\\":\\\"Weekly report\\\"}")
						+ "," + call("create_ticket", "{\\\"title\\\":\\\"Follow up\\\"}") + ","
						+ call("lookup_order", "{\\\"id\\\":\\\"42\\\"}") + "]}";
				finishReason = "tool_calls";
			}
			else {
				Matcher results = TOOL_RESULT.matcher(request);
				String answer = results.results().map((result) -> result.group()).collect(Collectors.joining(" | "));
				this.finalRoundToolResults.add(answer);
				if (this.failNextFinalRound.compareAndSet(true, false)) {
					send(exchange, 500, "{\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}");
					return;
				}
				message = "{\"role\":\"assistant\",\"content\":\"" + answer + "\",\"refusal\":null}";
				finishReason = "stop";
			}
			send(exchange, 200, "{\"id\":\"chatcmpl-" + UUID.randomUUID()
					+ "\",\"object\":\"chat.completion\",\"created\":1700000000,\"model\":\"mock-agent\","
					+ "\"choices\":[{\"index\":0,\"logprobs\":null,\"message\":" + message + ",\"finish_reason\":\""
					+ finishReason + "\"}],"
					+ "\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5,\"total_tokens\":15}}");
		}
	}

	/** A tool call with a fresh id; {@code arguments} is already escaped as the JSON string it is sent as. */
	private static String call(String name, String arguments) {
		return "{\"id\":\"call_" + UUID.randomUUID().toString().replace("-", "")
				+ "\",\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"arguments\":\"" + arguments
				+ "\"}}";
	}

	private static void send(HttpExchange exchange, int status, String json) throws IOException {
		byte[] body = json.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", "application/json");
		exchange.sendResponseHeaders(status, body.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(body);
		}
	}

	@Override
	public void close() {
		this.server.stop(0);
		this.executor.shutdownNow();
	}

}
