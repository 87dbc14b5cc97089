package dev.modelgate.idempotency.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.media.BooleanSchema;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.ObjectSchema;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.oas.models.parameters.PathParameter;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.jspecify.annotations.Nullable;
import org.springdoc.core.customizers.GlobalOperationCustomizer;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;

import dev.modelgate.idempotency.Idempotent;
import dev.modelgate.idempotency.web.IdempotencyProblem;
import dev.modelgate.idempotency.web.KeyedRequestSettings;

/**
 * Documents what the filter adds to {@code @Idempotent} operations in the springdoc-openapi
 * document: the key header (required when the annotation says so), the problem responses the filter
 * can answer instead of the handler, {@code Retry-After} on 409 and 503, and
 * {@code Idempotent-Replayed} on success responses. Responses the application documents itself are
 * left as they are. When the status resource is on ({@link #setStatusPath}), the 409 documents its
 * {@code Location} and the document gets the resource's {@code GET} operation and answers.
 */
public class IdempotencyOperationCustomizer implements GlobalOperationCustomizer, GlobalOpenApiCustomizer {

	/** Name of the problem schema added to the document's components. */
	public static final String PROBLEM_SCHEMA = "IdempotencyProblem";

	private static final String PROBLEM_JSON = "application/problem+json";

	private final String headerName;

	private final int keyMaxLength;

	private final int mismatchStatus;

	private final boolean problemDetails;

	private @Nullable String statusPath;

	/**
	 * @param headerName the key header
	 * @param keyMaxLength the longest key accepted
	 * @param mismatchStatus the status answered for a key reused with another request
	 * @param problemDetails whether refusals are RFC 9457 problem details (the default renderer); when
	 * an application renders them its own way, only their statuses and codes are documented
	 */
	public IdempotencyOperationCustomizer(String headerName, int keyMaxLength, int mismatchStatus,
			boolean problemDetails) {
		this.headerName = headerName;
		this.keyMaxLength = keyMaxLength;
		this.mismatchStatus = mismatchStatus;
		this.problemDetails = problemDetails;
	}

	/**
	 * Documents the status resource.
	 * @param statusPath where it lives (property {@code status-path}), or {@code null} when it is off
	 */
	public void setStatusPath(@Nullable String statusPath) {
		this.statusPath = statusPath;
	}

	@Override
	public Operation customize(Operation operation, HandlerMethod handlerMethod) {
		Idempotent idempotent = AnnotatedElementUtils.findMergedAnnotation(handlerMethod.getMethod(), Idempotent.class);
		if (idempotent == null) {
			idempotent = AnnotatedElementUtils.findMergedAnnotation(handlerMethod.getBeanType(), Idempotent.class);
		}
		if (idempotent == null) {
			return operation;
		}
		addKeyHeader(operation, idempotent);
		ApiResponses responses = (operation.getResponses() != null) ? operation.getResponses() : new ApiResponses();
		markReplays(responses);
		problems(idempotent).forEach((status, description) -> {
			if (!responses.containsKey(status)) {
				responses.addApiResponse(status, problemResponse(status, description));
			}
		});
		operation.setResponses(responses);
		return operation;
	}

	@Override
	public void customise(OpenAPI openApi) {
		if (this.statusPath != null) {
			openApi.path(this.statusPath + "/{token}", new PathItem().get(statusOperation()));
		}
		if (!this.problemDetails) {
			return;
		}
		if (openApi.getComponents() == null) {
			openApi.setComponents(new Components());
		}
		openApi.getComponents().addSchemas(PROBLEM_SCHEMA, problemSchema());
	}

	/** The status resource's {@code GET}: what each answer means to a client. */
	private Operation statusOperation() {
		ApiResponses responses = new ApiResponses()
			.addApiResponse("200", new ApiResponse().description("The request completed: its recorded response, "
					+ "status, headers and body, byte for byte (the status may be any the request got); a recorded "
					+ "Server-Sent Events stream is replayed, and a running one is followed when the client accepts "
					+ "text/event-stream (Last-Event-ID resumes after that event).")
				.addHeaderObject(KeyedRequestSettings.REPLAYED_HEADER,
						new Header().description("true: a replay of the key's first response")
							.schema(new BooleanSchema())))
			.addApiResponse("202", new ApiResponse().description("The request is still running (a stream that has "
					+ "not begun, or a client that does not accept text/event-stream); ask again after Retry-After seconds.")
				.addHeaderObject("Retry-After", new Header().description("Seconds to wait before asking again")
					.schema(new IntegerSchema())));
		Map<String, String> problems = new LinkedHashMap<>();
		problems.put("400", "The token is not one this service wrote (idempotency_status_token_invalid), or the "
				+ this.headerName + " header is missing or invalid (idempotency_key_missing, idempotency_key_invalid).");
		problems.put("404", "No request with this key and token is known for this client (idempotency_key_unknown); "
				+ "another client's key is answered the same.");
		problems.put("410", "The request ran and its response is no longer kept (idempotency_key_spent) or was "
				+ "never kept (idempotency_result_unavailable); it will not run again with this key.");
		problems.put("503", "The idempotency store is unavailable (idempotency_store_unavailable); ask again after "
				+ "Retry-After seconds.");
		problems.forEach((status, description) -> responses.addApiResponse(status, problemResponse(status, description)));
		return new Operation().summary("Status of a keyed request")
			.description("Where the Location of a duplicate's 409 points: answers without running anything, for "
					+ "the client that sent the request, with the same " + this.headerName + ".")
			.operationId("idempotencyStatus")
			.addParametersItem(new PathParameter().name("token")
				.description("From the Location of the 409; names the request, not the client")
				.schema(new StringSchema().pattern("^[A-Za-z0-9_-]+$")))
			.addParametersItem(new HeaderParameter().name(this.headerName)
				.required(true)
				.description("The key of the request whose status is asked for")
				.schema(new StringSchema().minLength(1).maxLength(this.keyMaxLength)))
			.responses(responses);
	}

	private void addKeyHeader(Operation operation, Idempotent idempotent) {
		if (operation.getParameters() != null) {
			for (Parameter parameter : operation.getParameters()) {
				if ("header".equals(parameter.getIn()) && this.headerName.equalsIgnoreCase(parameter.getName())) {
					return;
				}
			}
		}
		operation.addParametersItem(new HeaderParameter().name(this.headerName)
			.required(idempotent.required())
			.description("A unique value per operation (a UUID, for example), sent again unchanged on every retry: "
					+ "a retry with the same key and request gets the first response back instead of running "
					+ "again. A plain token or an RFC 8941 string of visible ASCII characters.")
			.schema(new StringSchema().minLength(1).maxLength(this.keyMaxLength))
			.example("5b2d6e8a-1f4c-4e7b-9a55-0c2f3d9b7e41"));
	}

	private void markReplays(ApiResponses responses) {
		responses.forEach((status, response) -> {
			if (status.startsWith("2")) {
				response.addHeaderObject(KeyedRequestSettings.REPLAYED_HEADER,
						new Header().description("true when this is a replay of the key's first response")
							.schema(new BooleanSchema()));
			}
		});
	}

	private Map<String, String> problems(Idempotent idempotent) {
		Map<String, String> problems = new LinkedHashMap<>();
		problems.put("400", "The " + this.headerName + " header is invalid (idempotency_key_invalid)"
				+ (idempotent.required() ? " or missing (idempotency_key_missing)" : "")
				+ ", or the body could not be read (idempotency_request_unreadable).");
		problems.put("409", "A request with this key is still running (idempotency_request_in_progress); "
				+ "retry with the same key after Retry-After seconds"
				+ ((this.statusPath != null) ? ", or ask the status resource its Location points to." : "."));
		problems.put("410", "The operation for this key ran but its result was not kept "
				+ "(idempotency_result_unavailable); it will not run again with this key.");
		problems.put("413", "The body is too large to be fingerprinted (idempotency_request_too_large).");
		problems.put(Integer.toString(this.mismatchStatus),
				"The key was already used with a different request (idempotency_key_reused).");
		if (idempotent.onStoreFailure() != Idempotent.StoreFailure.PROCEED) {
			problems.put("503", "The idempotency store is unavailable, so the request was not processed "
					+ "(idempotency_store_unavailable); retry with the same key after Retry-After seconds.");
		}
		return problems;
	}

	private ApiResponse problemResponse(String status, String description) {
		ApiResponse response = new ApiResponse().description(description);
		if ("409".equals(status) || "503".equals(status)) {
			response.addHeaderObject("Retry-After",
					new Header().description("Seconds to wait before retrying with the same key")
						.schema(new IntegerSchema()));
		}
		if ("409".equals(status) && this.statusPath != null) {
			response.addHeaderObject("Location",
					new Header().description("The status resource of the running request's key")
						.schema(new StringSchema()));
		}
		if (this.problemDetails) {
			response.content(new Content().addMediaType(PROBLEM_JSON,
					new MediaType().schema(new Schema<>().$ref("#/components/schemas/" + PROBLEM_SCHEMA))));
		}
		return response;
	}

	private static Schema<?> problemSchema() {
		return new ObjectSchema().description("An RFC 9457 problem detail answered by the Idempotency-Key filter")
			.addProperty("type", new StringSchema().example(IdempotencyProblem.TYPE_BASE + "idempotency-key-reused"))
			.addProperty("title", new StringSchema())
			.addProperty("status", new IntegerSchema())
			.addProperty("detail", new StringSchema())
			.addProperty("instance", new StringSchema())
			.addProperty("code", new StringSchema().description("Stable snake_case code")
				._enum(List.of("idempotency_key_invalid", "idempotency_key_missing",
						"idempotency_request_unreadable", "idempotency_request_in_progress",
						"idempotency_result_unavailable", "idempotency_request_too_large", "idempotency_key_reused",
						"idempotency_key_spent", "idempotency_store_unavailable", "idempotency_key_unknown",
						"idempotency_status_token_invalid")));
	}

}
