package com.kvportal.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.ApiDocument;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.OpenApiSnapshot;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

/** The served OpenAPI document: valid, complete, and the same as the committed snapshot the client is generated from. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiDocumentTest extends IntegrationTest {

    private String served;
    private JsonNode document;

    @BeforeAll
    void fetch() {
        served = ApiDocument.fetch(baseUrl());
        document = com.kvportal.support.Api.JSON.readTree(served);
    }

    @Test
    void shouldParseWithSwaggerParserWithoutASingleMessage() {
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(served);
        assertThat(result.getMessages()).as("swagger-parser messages").isEmpty();
        assertThat(result.getOpenAPI().getPaths()).isNotEmpty();
    }

    @Test
    void shouldEqualTheCommittedSnapshotFromWhichTheClientIsGenerated() {
        String canonical = OpenApiSnapshot.canonical(served);
        if (OpenApiSnapshot.writeRequested()) {
            OpenApiSnapshot.write(canonical);
        }
        assertThat(OpenApiSnapshot.read())
                .as("The served OpenAPI document differs from " + OpenApiSnapshot.FILE
                        + ". If the change is meant, regenerate the snapshot (and the client) with:\n    "
                        + OpenApiSnapshot.REGENERATE + "\nand commit it.")
                .isEqualTo(canonical);
    }

    @Test
    void shouldTellWhatTheServiceIsAndWhereItRuns() {
        JsonNode info = document.get("info");
        assertThat(info.get("title").asString()).isEqualTo("kv-portal");
        assertThat(info.get("version").asString()).isNotBlank().isNotEqualTo("v0");
        assertThat(info.get("description").asString()).contains("X-XSRF-TOKEN", "Bearer kv_", "problem");
        assertThat(info.path("license").path("name").asString()).isNotBlank();
        assertThat(document.get("servers").get(0).get("url").asString()).isEqualTo(baseUrl());
        document.get("tags").forEach(tag -> assertThat(tag.path("description").asString())
                .as(tag.toString())
                .isNotBlank());
    }

    @Test
    void shouldGiveEveryOperationAUniqueIdASummaryADescriptionATagAndItsCredentials() {
        Set<String> ids = new HashSet<>();
        operations().forEach(op -> {
            JsonNode operation = op.operation();
            assertThat(ids.add(operation.get("operationId").asString()))
                    .as("unique operationId " + op)
                    .isTrue();
            assertThat(operation.path("summary").asString()).as(op.toString()).isNotBlank();
            assertThat(operation.path("description").asString())
                    .as(op.toString())
                    .isNotBlank();
            assertThat(operation.get("tags")).as(op.toString()).hasSize(1);
            assertThat(operation.has("security"))
                    .as("security stated (empty: public) " + op)
                    .isTrue();
        });
        assertThat(ids).contains("createApiKey", "listApiKeys", "verifyApiKey", "revokeApiKey", "signUp", "logIn");
    }

    @Test
    void shouldTakeEachOperationsTextsFromTheOperationsFileWhichHasNoOtherEntry() {
        OperationTexts texts = OperationTexts.load();
        Set<String> ids = new HashSet<>();
        operations().forEach(op -> {
            JsonNode operation = op.operation();
            String id = operation.get("operationId").asString();
            ids.add(id);
            Operation described = new Operation().operationId(id);
            texts.describe(described, op.toString());
            assertThat(operation.get("summary").asString()).as(op.toString()).isEqualTo(described.getSummary());
            assertThat(operation.get("description").asString())
                    .as(op.toString())
                    .startsWith(described.getDescription());
        });
        assertThat(ids).isEqualTo(texts.operationIds());
    }

    @Test
    void shouldNotLeakInternalArguments() {
        assertThat(served).doesNotContain("\"caller\"", "Caller", "*/*");
    }

    @Test
    void shouldDocumentEveryErrorAsAProblemWithItsCodesAndAnExampleOfEach() {
        JsonNode schemas = document.get("components").get("schemas");
        operations().forEach(op -> op.operation().get("responses").properties().forEach(response -> {
            int status = Integer.parseInt(response.getKey());
            JsonNode content = response.getValue().path("content");
            if (status < 400) {
                // JSON, but for the one Server-Sent Events stream (a verify lease's events)
                String expected = op.operation().path("operationId").asString().equals("followVerifyLease")
                        ? "text/event-stream"
                        : "application/json";
                content.propertyNames()
                        .forEach(type -> assertThat(type).as(op.toString()).isEqualTo(expected));
                return;
            }
            JsonNode problem = content.get("application/problem+json");
            assertThat(problem).as(op + " " + status).isNotNull();
            String schema = problem.get("schema").get("$ref").asString().replace("#/components/schemas/", "");
            List<String> codes = new ArrayList<>();
            schemas.get(schema).get("properties").get("code").get("enum").forEach(c -> codes.add(c.asString()));
            problem.get("examples").properties().forEach(example -> {
                assertThat(codes).as(op + " " + status).contains(example.getKey());
                assertThat(example.getValue().get("value").get("status").asInt())
                        .isEqualTo(status);
            });
        }));
        JsonNode revoke = document.at("/paths/~1api~1v1~1api-keys~1{id}/delete/responses");
        assertThat(revoke.propertyNames()).contains("204", "401", "403", "404");
        assertThat(revoke.get("204").has("content")).isFalse();
        JsonNode create = document.at("/paths/~1api~1v1~1api-keys/post/responses");
        assertThat(create.propertyNames()).contains("201", "400", "409", "413", "415");
        assertThat(create.at("/409/content/application~1problem+json/examples").has("key_limit_reached"))
                .isTrue();
        assertThat(document.at("/paths/~1api~1v1~1billing~1checkout~1success/get/responses")
                        .propertyNames())
                .contains("303");
    }

    @Test
    void shouldStateFormatsEnumsAndLengths() {
        JsonNode schemas = document.get("components").get("schemas");
        JsonNode key = schemas.get("ApiKey").get("properties");
        assertThat(key.at("/id/format").asString()).isEqualTo("uuid");
        assertThat(key.at("/created_at/format").asString()).isEqualTo("date-time");
        assertThat(key.at("/last_used_at/nullable").asBoolean()).isTrue();
        assertThat(key.at("/permissions/items/enum").toString()).isEqualTo("[\"read\",\"write\",\"admin\"]");
        JsonNode create = schemas.get("NewApiKey").get("properties");
        assertThat(create.at("/name/maxLength").asInt()).isEqualTo(100);
        assertThat(schemas.get("Plan").at("/properties/tier/enum").toString()).isEqualTo("[\"free\",\"pro\",\"team\"]");
        assertThat(schemas.get("Subscription").at("/properties/status/enum").size())
                .isEqualTo(8);
        assertThat(schemas.get("Invoice").at("/properties/status/enum").size()).isEqualTo(5);
    }

    private record Op(String method, String path, JsonNode operation) {
        @Override
        public String toString() {
            return method.toUpperCase() + " " + path;
        }
    }

    private List<Op> operations() {
        List<Op> operations = new ArrayList<>();
        document.get("paths").properties().forEach(path -> path.getValue()
                .properties()
                .forEach(op -> operations.add(new Op(op.getKey(), path.getKey(), op.getValue()))));
        assertThat(operations).isNotEmpty();
        return operations;
    }
}
