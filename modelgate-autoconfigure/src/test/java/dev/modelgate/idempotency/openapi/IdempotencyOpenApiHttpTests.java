package dev.modelgate.idempotency.openapi;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.modelgate.idempotency.testsupport.ObservabilityTest;
import dev.modelgate.idempotency.testsupport.TestHttp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document springdoc serves: {@code @Idempotent} operations carry the key header and
 * the problem responses the filter may answer; other operations are untouched.
 */
@ObservabilityTest
@TestPropertySource(properties = "modelgate.idempotency.status-path=/idempotency-status")
class IdempotencyOpenApiHttpTests {

	@LocalServerPort
	private int port;

	private JsonNode document;

	@BeforeEach
	void fetchDocument() {
		HttpResponse<String> response = new TestHttp(this.port).get("/v3/api-docs");
		assertThat(response.statusCode()).isEqualTo(200);
		this.document = JsonMapper.builder().build().readTree(response.body());
	}

	@Test
	void idempotentOperationDocumentsTheOptionalKeyHeader() {
		JsonNode header = keyHeader(operation("/orders"));
		assertThat(header).isNotNull();
		assertThat(header.get("required").booleanValue()).isFalse();
		assertThat(header.get("schema").get("type").stringValue()).isEqualTo("string");
		assertThat(header.get("schema").get("maxLength").intValue()).isEqualTo(255);
		assertThat(header.get("description").stringValue()).contains("retry");
	}

	@Test
	void requiredKeyIsDocumentedAsRequired() {
		assertThat(keyHeader(operation("/required")).get("required").booleanValue()).isTrue();
	}

	@Test
	void idempotentOperationDocumentsTheProblemResponses() {
		JsonNode responses = operation("/orders").get("responses");
		assertThat(responses.propertyNames()).contains("400", "409", "410", "413", "422", "503");
		for (String status : new String[] { "400", "409", "410", "413", "422", "503" }) {
			assertThat(responses.get(status).get("content").get("application/problem+json").get("schema").get("$ref")
				.stringValue()).as(status).isEqualTo("#/components/schemas/IdempotencyProblem");
		}
		assertThat(responses.get("422").get("description").stringValue()).contains("idempotency_key_reused");
		assertThat(responses.get("409").get("headers").has("Retry-After")).isTrue();
		assertThat(responses.get("503").get("headers").has("Retry-After")).isTrue();
		assertThat(this.document.get("components").get("schemas").get("IdempotencyProblem").get("properties")
			.propertyNames()).contains("type", "title", "status", "detail", "code");
	}

	@Test
	void statusResourceIsDocumentedWithEachAnswerAndTheConflictPointsToIt() {
		JsonNode status = this.document.get("paths").get("/idempotency-status/{token}").get("get");
		assertThat(status.get("responses").propertyNames()).containsExactlyInAnyOrder("200", "202", "400", "404",
				"410", "503");
		assertThat(status.get("responses").get("202").get("headers").has("Retry-After")).isTrue();
		assertThat(status.get("responses").get("404").get("description").stringValue())
			.contains("idempotency_key_unknown");
		assertThat(keyHeader(status).get("required").booleanValue()).isTrue();
		assertThat(operation("/orders").get("responses").get("409").get("headers").has("Location")).isTrue();
	}

	@Test
	void successResponsesDocumentTheReplayedHeader() {
		JsonNode responses = operation("/orders").get("responses");
		String success = responses.propertyNames().stream().filter((status) -> status.startsWith("2")).findFirst()
			.orElseThrow();
		assertThat(responses.get(success).get("headers").has("Idempotent-Replayed")).isTrue();
	}

	@Test
	void proceedingEndpointDoesNotDocumentStoreUnavailable() {
		assertThat(operation("/proceed").get("responses").has("503")).isFalse();
	}

	@Test
	void classLevelAnnotationIsDocumentedToo() {
		assertThat(keyHeader(operation("/class-level"))).isNotNull();
	}

	@Test
	void otherOperationsAreUntouched() {
		JsonNode plain = operation("/plain");
		assertThat(keyHeader(plain)).isNull();
		assertThat(plain.get("responses").has("409")).isFalse();
	}

	private JsonNode operation(String path) {
		JsonNode operation = this.document.get("paths").get(path).get("post");
		assertThat(operation).as("POST %s in %s", path, this.document.get("paths").propertyNames()).isNotNull();
		return operation;
	}

	private static JsonNode keyHeader(JsonNode operation) {
		JsonNode parameters = operation.get("parameters");
		if (parameters == null) {
			return null;
		}
		for (JsonNode parameter : parameters) {
			if ("header".equals(parameter.get("in").stringValue())
					&& "Idempotency-Key".equals(parameter.get("name").stringValue())) {
				return parameter;
			}
		}
		return null;
	}

}
