package com.kvportal.common;

import static com.kvportal.support.Problems.assertProblem;
import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.ApiDocument;
import com.kvportal.support.IntegrationTest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every {@code /api/} operation of the served OpenAPI document, taken from the document itself, answers a client
 * mistake with its problem: an unknown body field 400 {@code validation_failed} naming it, a wrong content type 415
 * naming {@code application/json}, a wrong method 405 naming the methods the path takes, an id that is not a UUID
 * 400; always as {@code application/problem+json}, one content type. A new operation with a body fails here until
 * it is given a valid body below.
 */
class EveryEndpointTest extends IntegrationTest {

    private static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
    private static final String PROBLEM_JSON = "application/problem+json";
    private static final String UNKNOWN = "x_unknown_field";

    /** Operations whose body is a provider's payload: its fields are the provider's, and unknown ones are taken. */
    private static final Set<String> PROVIDER_PAYLOADS = Set.of("receiveProviderEvent", "reportLeakedKeys");

    /**
     * Operations whose flood limit answers before the body is read (a few requests per client and window): the tests
     * that send many bodies leave them out, lest they meet 429 instead of what they check.
     */
    private static final Set<String> LIMITED_BEFORE_THE_BODY = Set.of("requestPasswordReset");

    /** A body each operation takes as far as its fields go (what it then does with them does not matter here). */
    private static final Map<String, String> VALID_BODIES = Map.ofEntries(
            entry(
                    "signUp",
                    "{\"email\":\"walk-" + UUID.randomUUID()
                            + "@example.com\",\"password\":\"correct horse battery\"}"),
            entry("logIn", "{\"email\":\"nobody@example.com\",\"password\":\"correct horse battery\"}"),
            entry("logInSecondStep", "{\"code\":\"123456\"}"),
            entry("switchProject", "{\"project_id\":\"" + UUID.randomUUID() + "\"}"),
            entry("createProject", "{\"name\":\"walk\"}"),
            entry("createApiKey", "{\"name\":\"walk\"}"),
            entry("updateApiKey", "{\"name\":\"walk\"}"),
            entry("rollApiKey", "{\"grace_seconds\":0}"),
            entry("verifyApiKey", "{\"client_ip\":\"203.0.113.7\",\"cost\":1}"),
            entry("replaceKeyPolicy", "{\"max_lifetime_days\":null,\"require_allowed_ips\":false}"),
            entry("startCheckout", "{\"tier\":\"pro\"}"),
            entry("changePlan", "{\"tier\":\"team\"}"),
            entry(
                    "reportStorage",
                    "{\"samples\":[{\"id\":\"walk\",\"project_id\":\"" + UUID.randomUUID()
                            + "\",\"bytes\":1,\"at\":\"2026-01-01T00:00:00Z\"}]}"),
            entry("putUsageLimits", "{\"storage_cap_bytes\":null}"),
            entry("acknowledgeVerifyLeaseEvents", "{\"seq\":0}"),
            entry("receiveProviderEvent", "{\"id\":\"evt_walk\",\"type\":\"ping\"}"),
            entry("verifyEmail", "{\"token\":\"walk\"}"),
            entry("confirmEmailChange", "{\"token\":\"walk\"}"),
            entry("requestPasswordReset", "{\"email\":\"nobody@example.com\"}"),
            entry("confirmPasswordReset", "{\"token\":\"walk\",\"password\":\"correct horse battery\"}"),
            entry("changePassword", "{\"current_password\":\"walk\",\"new_password\":\"correct horse battery\"}"),
            entry("changeEmail", "{\"new_email\":\"nobody@example.com\",\"current_password\":\"walk\"}"),
            entry("setUpTotp", "{\"current_password\":\"walk\"}"),
            entry("confirmTotp", "{\"code\":\"123456\"}"),
            entry("disableTotp", "{\"current_password\":\"walk\",\"code\":\"123456\"}"),
            entry("createOrganization", "{\"name\":\"walk\"}"),
            entry("inviteMember", "{\"email\":\"walk@example.com\",\"role\":\"viewer\"}"),
            entry("changeMemberRole", "{\"role\":\"viewer\"}"),
            entry("acceptInvitation", "{\"token\":\"walk\"}"),
            entry("transferOwnership", "{\"customer_id\":\"" + UUID.randomUUID() + "\",\"current_password\":\"walk\"}"),
            entry("deleteOrganization", "{\"name\":\"not the name\",\"current_password\":\"walk\"}"),
            entry("createWebhookEndpoint", "{\"url\":\"https://hooks.example.invalid/walk\"}"),
            entry("updateWebhookEndpoint", "{\"description\":\"walk\"}"));

    private record Operation(String method, String template, String id, JsonNode spec) {}

    private JsonNode document;
    private List<Operation> operations;
    private String adminKey;
    private Api owner;

    @BeforeEach
    void readTheDocument() {
        document = Api.JSON.readTree(ApiDocument.fetch(baseUrl()));
        operations = new ArrayList<>();
        document.path("paths").properties().forEach(path -> path.getValue()
                .properties()
                .forEach(operation -> operations.add(new Operation(
                        operation.getKey().toUpperCase(),
                        path.getKey(),
                        operation.getValue().path("operationId").asString(),
                        operation.getValue()))));
        owner = api();
        owner.signup();
        adminKey = owner.createKey("admin", "admin");
    }

    @Test
    void shouldWalkEveryApiOperation() {
        assertThat(operations).hasSizeGreaterThan(20).allMatch(op -> op.template()
                .startsWith("/api/"));
        Set<String> withBodies = new TreeSet<>();
        operations.stream().filter(op -> hasBody(op)).forEach(op -> withBodies.add(op.id()));
        Set<String> covered = new TreeSet<>(VALID_BODIES.keySet());
        covered.addAll(PROVIDER_PAYLOADS);
        assertThat(covered).as("a body for every operation that takes one").containsAll(withBodies);
    }

    @Test
    void shouldRefuseAnUnknownBodyFieldNamingItAndTheFieldsToSend() {
        for (Operation op : operations) {
            if (!hasBody(op) || PROVIDER_PAYLOADS.contains(op.id())) {
                continue;
            }
            ObjectNode body = (ObjectNode) Api.JSON.readTree(VALID_BODIES.get(op.id()));
            body.put(UNKNOWN, 1);

            Api.Response response = caller(op).send(op.method(), path(op), body.toString(), "application/json");

            JsonNode problem = assertProblem(response, 400, "validation_failed");
            assertThat(response.header("Content-Type")).as(op.id()).isEqualTo(PROBLEM_JSON);
            assertThat(problem.get("errors")).as(op.id() + " " + response).hasSize(1);
            JsonNode error = problem.get("errors").get(0);
            assertThat(error.get("field").asString()).as(op.id()).isEqualTo(UNKNOWN);
            for (String field : fieldsOf(op)) {
                assertThat(error.get("message").asString()).as(op.id()).contains(field);
            }
        }
    }

    /** Values of another JSON type than the field's, which Jackson would otherwise coerce (or a person might expect). */
    private static final Map<String, List<String>> WRONG_TYPES = Map.of(
            "string", List.of("5", "5.5", "true"),
            "integer", List.of("\"60\"", "60.5", "true", "\"\""),
            "number", List.of("\"60\"", "true"),
            "boolean", List.of("\"true\"", "1", "0.0"),
            "array", List.of("\"x\"", "5"));

    @Test
    void shouldRefuseAValueOfAnotherTypeNamingTheField() {
        int checked = 0;
        for (Operation op : operations) {
            if (!hasBody(op) || PROVIDER_PAYLOADS.contains(op.id()) || LIMITED_BEFORE_THE_BODY.contains(op.id())) {
                continue;
            }
            for (Map.Entry<String, JsonNode> field : propertiesOf(op).entrySet()) {
                String type = field.getValue().path("type").asString();
                List<String> values = new ArrayList<>();
                WRONG_TYPES.getOrDefault(type, List.of()).forEach(value -> values.add(value));
                String itemType = field.getValue().path("items").path("type").asString();
                WRONG_TYPES.getOrDefault(itemType, List.of()).forEach(value -> values.add("[" + value + "]"));
                for (String value : values) {
                    ObjectNode body = (ObjectNode) Api.JSON.readTree(VALID_BODIES.get(op.id()));
                    body.set(field.getKey(), Api.JSON.readTree(value));

                    Api.Response response = caller(op).send(op.method(), path(op), body.toString(), "application/json");

                    String as = op.id() + " " + field.getKey() + "=" + value + ": " + response;
                    JsonNode problem = assertProblem(response, 400, "validation_failed");
                    assertThat(problem.get("errors")).as(as).hasSize(1);
                    // an item of a list: the item, or the list as a whole where one rule states what it holds
                    assertThat(problem.get("errors").get(0).get("field").asString())
                            .as(as)
                            .isIn(field.getKey(), value.startsWith("[") ? field.getKey() + "[0]" : field.getKey());
                    assertThat(problem.get("errors").get(0).get("message").asString())
                            .as(as)
                            .startsWith("must be");
                    checked++;
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
    }

    @Test
    void shouldRefuseAnObjectWithAKeyTwice() {
        for (Operation op : operations) {
            if (!hasBody(op) || PROVIDER_PAYLOADS.contains(op.id()) || LIMITED_BEFORE_THE_BODY.contains(op.id())) {
                continue;
            }
            String valid = VALID_BODIES.get(op.id());
            String key = Api.JSON.readTree(valid).propertyNames().iterator().next();
            // the first member once more, with the same value: still not a body with one meaning per key
            String body = "{\"" + key + "\":" + Api.JSON.readTree(valid).get(key) + "," + valid.substring(1);

            Api.Response response = caller(op).send(op.method(), path(op), body, "application/json");

            JsonNode problem = assertProblem(response, 400, "malformed_json");
            assertThat(problem.get("detail").asString())
                    .as(op.id())
                    .isEqualTo("The request body holds the key \"" + key + "\" twice in one object: send each key"
                            + " once.");
        }
    }

    @Test
    void shouldAnswer415NamingApplicationJsonForAnyOtherContentType() {
        for (Operation op : operations) {
            if (!hasBody(op)) {
                continue;
            }
            String body = VALID_BODIES.getOrDefault(op.id(), "[]");
            for (String type : new String[] {"text/plain", "application/xml", null}) {
                Api.Response response = caller(op).send(op.method(), path(op), body, type);

                JsonNode problem = assertProblem(response, 415, "unsupported_media_type");
                assertThat(response.header("Content-Type")).as(op.id()).isEqualTo(PROBLEM_JSON);
                assertThat(problem.get("detail").asString()).as(op.id()).contains("application/json");
                assertThat(response.header("Accept")).as(op.id()).contains("application/json");
            }
        }
    }

    @Test
    void shouldAnswer405NamingTheMethodsOfThePathForEveryOtherMethod() {
        Map<String, Set<String>> methodsByPath = new LinkedHashMap<>();
        for (Operation op : operations) {
            methodsByPath.computeIfAbsent(op.template(), t -> new TreeSet<>()).add(op.method());
        }
        for (Map.Entry<String, Set<String>> path : methodsByPath.entrySet()) {
            Operation any = operations.stream()
                    .filter(op -> op.template().equals(path.getKey()))
                    .findFirst()
                    .orElseThrow();
            for (String method : METHODS) {
                if (path.getValue().contains(method)) {
                    continue;
                }
                Api.Response response = caller(any).send(method, path(any), null, null);

                JsonNode problem = assertProblem(response, 405, "method_not_allowed");
                assertThat(response.header("Content-Type"))
                        .as(method + " " + path)
                        .isEqualTo(PROBLEM_JSON);
                Set<String> allowed =
                        new TreeSet<>(List.of(response.header("Allow").split(",\\s*")));
                allowed.removeAll(Set.of("HEAD", "OPTIONS"));
                assertThat(allowed).as(method + " " + path).isEqualTo(path.getValue());
                for (String documented : path.getValue()) {
                    assertThat(problem.get("detail").asString())
                            .as(method + " " + path)
                            .contains(documented);
                }
            }
        }
    }

    @Test
    void shouldAnswer400ForAPathIdThatIsNotAUuid() {
        int idRoutes = 0;
        for (Operation op : operations) {
            for (JsonNode parameter : op.spec().path("parameters")) {
                if (!parameter.path("in").asString().equals("path")) {
                    continue;
                }
                assertThat(parameter.path("schema").path("format").asString())
                        .as("every path id of " + op.id() + " is a UUID")
                        .isEqualTo("uuid");
                String name = parameter.path("name").asString();
                for (String notAnId : new String[] {"VERIFY", "roll", "x", "0"}) {
                    String body = hasBody(op) ? VALID_BODIES.get(op.id()) : null;
                    Api.Response response = caller(op)
                            .send(
                                    op.method(),
                                    // the route's other ids are ids
                                    op.template()
                                            .replace("{" + name + "}", notAnId)
                                            .replaceAll(
                                                    "\\{[^}]+}",
                                                    UUID.randomUUID().toString()),
                                    body,
                                    body == null ? null : "application/json");

                    JsonNode problem = assertProblem(response, 400, "validation_failed");
                    assertThat(response.header("Content-Type")).isEqualTo(PROBLEM_JSON);
                    assertThat(problem.get("errors").get(0).get("field").asString())
                            .as(op.id())
                            .isEqualTo(name);
                    assertThat(problem.get("errors").get(0).get("message").asString())
                            .contains("UUID");
                }
                idRoutes++;
            }
        }
        assertThat(idRoutes).isGreaterThanOrEqualTo(3);
    }

    private static boolean hasBody(Operation op) {
        return op.spec().path("requestBody").path("content").has("application/json");
    }

    /** The properties of the operation's body schema, as the document names them. */
    private Set<String> fieldsOf(Operation op) {
        return new LinkedHashSet<>(propertiesOf(op).keySet());
    }

    /** The properties of the operation's body schema, each with its schema. */
    private Map<String, JsonNode> propertiesOf(Operation op) {
        JsonNode schema = op.spec()
                .path("requestBody")
                .path("content")
                .path("application/json")
                .path("schema");
        if (schema.has("$ref")) {
            String name = schema.get("$ref").asString().replace("#/components/schemas/", "");
            schema = document.path("components").path("schemas").path(name);
        }
        Map<String, JsonNode> properties = new LinkedHashMap<>();
        schema.path("properties").properties().forEach(entry -> properties.put(entry.getKey(), entry.getValue()));
        return properties;
    }

    /** The template with every path parameter a fresh UUID: an id of nothing, well formed. */
    private static String path(Operation op) {
        return op.template().replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
    }

    /** A client with a credential the operation accepts, so that the request reaches the operation. */
    private Api caller(Operation op) {
        Set<String> schemes = new TreeSet<>();
        op.spec().path("security").forEach(requirement -> schemes.addAll(requirement.propertyNames()));
        // an admin key acts as an admin; an operation only an owner may call takes the owner's session
        boolean ownerOnly = op.spec().has("x-roles")
                && !op.spec().path("x-roles").toString().contains("\"admin\"");
        if (schemes.contains("session") && ownerOnly) {
            return owner;
        }
        if (schemes.contains("apiKey")) {
            return Api.withKey(baseUrl(), adminKey);
        }
        if (schemes.contains("usageToken")) {
            return Api.withKey(baseUrl(), USAGE_TOKEN);
        }
        return api();
    }
}
