package dev.modelgate.idempotency.ai;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.util.ClassUtils;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

import dev.modelgate.idempotency.core.FailurePolicy;
import dev.modelgate.idempotency.core.IdempotencyInProgressException;
import dev.modelgate.idempotency.core.IdempotencyKeyReusedException;
import dev.modelgate.idempotency.core.IdempotencyKeySpentException;
import dev.modelgate.idempotency.core.IdempotencyResultUnavailableException;
import dev.modelgate.idempotency.core.IdempotencyStoreException;
import dev.modelgate.idempotency.core.IdempotencyTemplate;
import dev.modelgate.idempotency.core.IdempotentCall;
import dev.modelgate.idempotency.core.InvalidIdempotencyKeyException;
import dev.modelgate.idempotency.core.OutcomeUnknownException;
import dev.modelgate.idempotency.core.ResultCodec;

/**
 * Tools served over MCP that honour an idempotency key sent by the client: a {@code tools/call} whose
 * {@code _meta} holds {@link #META_KEY} runs at most once per tool and key, and a retry gets the recorded
 * result back, marked with {@link #REPLAYED_META_KEY}. A call without the entry runs as before.
 *
 * <p>The arguments are fingerprinted: the same key with other arguments is refused (JSON-RPC
 * {@code -32602}, data {@code code} {@code idempotency_key_reused}), as a retry of an HTTP request with
 * another body is. A result marked {@code isError}, or an exception the tool throws, is not kept: a retry
 * runs the tool again, as after a 5xx answer.
 *
 * <p>A call without the {@code _meta} entry may carry its key in the HTTP {@link #HEADER} header of its
 * streamable HTTP request, when the server's transport copies that header into the transport context
 * with {@link #transportContext(String)} (its {@code contextExtractor}), or when the tool runs on the thread
 * of that request in a Spring MVC application (what Spring AI's auto-configuration sets up on a servlet
 * application: a synchronous server with immediate execution), which binds the request to its thread. When
 * both are present, the {@code _meta} entry wins: it belongs to the call, the header to the HTTP request.
 */
public final class IdempotentMcpTools {

	/**
	 * The {@code _meta} entry of a {@code tools/call} request that holds its idempotency key. A protected
	 * Spring AI tool passes its derived key under the same name in its {@code ToolContext}, which Spring
	 * AI's MCP client sends as {@code _meta}: an agent's calls to a remote MCP tool carry their key.
	 */
	public static final String META_KEY = IdempotentToolCallingManager.TOOL_CALL_KEY;

	/** The {@code _meta} entry of a result that was recorded earlier and not made again. */
	public static final String REPLAYED_META_KEY = "dev.modelgate/idempotent-replayed";

	/**
	 * The HTTP header of a {@code tools/call} request that holds its idempotency key when {@code _meta}
	 * does not, and the name of the transport context entry {@link #transportContext(String)} puts it in.
	 */
	public static final String HEADER = "Idempotency-Key";

	/** The operation of a served tool's calls is this prefix and the tool's name. */
	public static final String OPERATION_PREFIX = "mcp.tool.";

	/** The method of the decisions reported for served tool calls; their route is the operation's name. */
	public static final String REPORTED_METHOD = "MCP";

	private static final Logger logger = LoggerFactory.getLogger(IdempotentMcpTools.class);

	private static final boolean SERVLET_REQUESTS = ClassUtils.isPresent(
			"org.springframework.web.context.request.ServletRequestAttributes", IdempotentMcpTools.class.getClassLoader())
			&& ClassUtils.isPresent("jakarta.servlet.http.HttpServletRequest", IdempotentMcpTools.class.getClassLoader());

	private IdempotentMcpTools() {
	}

	/**
	 * {@return the tool, honouring a key sent in {@code _meta}}
	 * @param tool a tool of an MCP server
	 * @param template the template the calls run through
	 * @param waitTimeout how long a retry waits for the same call still running elsewhere
	 */
	public static SyncToolSpecification protect(SyncToolSpecification tool, IdempotencyTemplate template,
			Duration waitTimeout) {
		Objects.requireNonNull(tool, "tool must not be null");
		Objects.requireNonNull(template, "template must not be null");
		Objects.requireNonNull(waitTimeout, "waitTimeout must not be null");
		String name = tool.tool().name();
		JsonCodec codec = new JsonCodec(McpJsonDefaults.getMapper());
		return new SyncToolSpecification(tool.tool(), (exchange, request) -> {
			Object key = (request.meta() != null) ? request.meta().get(META_KEY) : null;
			if (key == null) {
				key = header(exchange);
			}
			if (key == null) {
				return tool.callHandler().apply(exchange, request);
			}
			if (!(key instanceof String keyText)) {
				throw error(McpSchema.ErrorCodes.INVALID_PARAMS, "idempotency_key_invalid",
						"The _meta entry " + META_KEY + " must be a string");
			}
			IdempotentCall<CallToolResult> call = IdempotentCall.of(OPERATION_PREFIX + name, keyText, codec)
				.withFingerprint(RecordedToolCall.hashArguments(OPERATION_PREFIX + name,
						codec.json(request.arguments())))
				.withReportedMethod(REPORTED_METHOD)
				.withWaitTimeout(waitTimeout)
				.withFailurePolicy(FailurePolicy.standard());
			AtomicBoolean ran = new AtomicBoolean();
			try {
				CallToolResult result = template.execute(call, () -> {
					ran.set(true);
					CallToolResult answer = tool.callHandler().apply(exchange, request);
					if (Boolean.TRUE.equals(answer.isError())) {
						throw new ErrorResult(answer);
					}
					return answer;
				});
				return ran.get() ? result : replayed(result);
			}
			catch (ErrorResult ex) {
				return ex.result;
			}
			catch (InvalidIdempotencyKeyException ex) {
				throw error(McpSchema.ErrorCodes.INVALID_PARAMS, "idempotency_key_invalid", ex.getMessage());
			}
			catch (IdempotencyKeyReusedException ex) {
				throw error(McpSchema.ErrorCodes.INVALID_PARAMS, "idempotency_key_reused",
						"This idempotency key was used for a call of '" + name + "' with other arguments");
			}
			catch (IdempotencyInProgressException ex) {
				throw error(McpSchema.ErrorCodes.INVALID_REQUEST, "idempotency_request_in_progress",
						"A call of '" + name + "' with this idempotency key is still running; retry later");
			}
			catch (IdempotencyKeySpentException ex) {
				throw error(McpSchema.ErrorCodes.INVALID_REQUEST, "idempotency_key_spent",
						"This idempotency key was used for a call of '" + name + "' whose result has expired");
			}
			catch (IdempotencyResultUnavailableException | OutcomeUnknownException ex) {
				throw error(McpSchema.ErrorCodes.INVALID_REQUEST, "idempotency_result_unavailable",
						"A call of '" + name + "' with this idempotency key ran, but its result was not kept");
			}
			catch (IdempotencyStoreException ex) {
				logger.warn("MCP tool '{}' did not run: the idempotency store could not be asked", name, ex);
				throw error(McpSchema.ErrorCodes.INTERNAL_ERROR, "idempotency_store_unavailable",
						"The idempotency store could not be asked; the tool did not run");
			}
		});
	}

	/**
	 * {@return the tools, each honouring a key sent in {@code _meta}}
	 * @param tools the tools of an MCP server
	 * @param template the template the calls run through
	 * @param waitTimeout how long a retry waits for the same call still running elsewhere
	 */
	public static List<SyncToolSpecification> protect(List<SyncToolSpecification> tools,
			IdempotencyTemplate template, Duration waitTimeout) {
		return tools.stream().map((tool) -> protect(tool, template, waitTimeout)).toList();
	}

	/**
	 * {@return the transport context of a request whose {@link #HEADER} header has this value} Given to
	 * the {@code contextExtractor} of a streamable HTTP server transport, for example
	 * {@code (request) -> IdempotentMcpTools.transportContext(request.getHeader(IdempotentMcpTools.HEADER))}
	 * @param header the header's value, or {@code null} when the request has none
	 */
	public static McpTransportContext transportContext(String header) {
		return (header != null) ? McpTransportContext.create(Map.of(HEADER, header)) : McpTransportContext.EMPTY;
	}

	private static @Nullable Object header(@Nullable McpSyncServerExchange exchange) {
		McpTransportContext context = (exchange != null) ? exchange.transportContext() : null;
		Object header = (context != null) ? context.get(HEADER) : null;
		return (header != null || !SERVLET_REQUESTS) ? header : ServletRequestHeader.get(HEADER);
	}

	private static CallToolResult replayed(CallToolResult result) {
		Map<String, Object> meta = new HashMap<>();
		if (result.meta() != null) {
			meta.putAll(result.meta());
		}
		meta.put(REPLAYED_META_KEY, true);
		return new CallToolResult(result.content(), result.isError(), result.structuredContent(), meta);
	}

	private static McpError error(int errorCode, String code, String message) {
		return McpError.builder(errorCode).message(message).data(Map.of("code", code)).build();
	}

	/** A result marked {@code isError}: released like a failure, then given to the client as it is. */
	private static final class ErrorResult extends RuntimeException {

		private final transient CallToolResult result;

		ErrorResult(CallToolResult result) {
			super(null, null, false, false);
			this.result = result;
		}

	}

	private record JsonCodec(McpJsonMapper mapper) implements ResultCodec<CallToolResult> {

		@Override
		public byte[] encode(CallToolResult value) {
			try {
				return this.mapper.writeValueAsBytes(value);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		@Override
		public CallToolResult decode(byte[] bytes) {
			try {
				return this.mapper.readValue(bytes, CallToolResult.class);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		String json(Map<String, Object> arguments) {
			try {
				return this.mapper.writeValueAsString((arguments != null) ? arguments : Map.of());
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

	}

	/** The header of the servlet request bound to this thread, if any; loaded only where Spring Web and the Servlet API are. */
	private static final class ServletRequestHeader {

		static @Nullable String get(String name) {
			return (RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes request)
					? request.getRequest().getHeader(name) : null;
		}

	}

}
