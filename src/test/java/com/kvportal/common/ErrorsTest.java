package com.kvportal.common;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.io.ByteArrayInputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ErrorsTest extends IntegrationTest {

    private static final int KIB = 1024;

    /** A syntactically valid JSON document of exactly {@code size} bytes. */
    private static byte[] jsonOf(int size) {
        String head = "{\"name\":\"";
        String tail = "\"}";
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) 'a');
        System.arraycopy(head.getBytes(StandardCharsets.US_ASCII), 0, body, 0, head.length());
        System.arraycopy(tail.getBytes(StandardCharsets.US_ASCII), 0, body, size - tail.length(), tail.length());
        return body;
    }

    private static HttpRequest.BodyPublisher chunked(byte[] body) {
        return HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body));
    }

    private static Map<String, String> json() {
        return Map.of("Content-Type", "application/json");
    }

    private long projectsOf(Api.Account account) {
        return count("select count(*) from projects where organization_id = ?", account.organizationId());
    }

    private Api signedIn() {
        Api api = signedUp();
        return api;
    }

    @Test
    void shouldAnswer404ProblemForAnUnknownPathWithOrWithoutCredentials() {
        Api session = signedIn();
        Api admin = Api.withKey(baseUrl(), session.createKey("admin", "admin"));

        for (Api api : new Api[] {api(), session, admin}) {
            assertProblem(api.get("/api/v1/nothing-here"), 404, "not_found");
            assertProblem(api.post("/api/v1/nothing-here", Map.of("a", 1)), 404, "not_found");
            assertProblem(api.get("/api/v2/api-keys"), 404, "not_found");
        }
        assertProblem(session.get("/api/v1/projects/nothing/here"), 404, "not_found");
        assertProblem(admin.get("/api/v1/session/nothing"), 404, "not_found");
    }

    @Test
    void shouldAnswer404ProblemEvenWhenTheClientPrefersHtml() {
        Api.Response response = api().sendRaw(
                        "GET",
                        "/api/v1/nothing-here",
                        HttpRequest.BodyPublishers.noBody(),
                        Map.of("Accept", "text/html"));

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.body()).doesNotContainIgnoringCase("<html");
    }

    @Test
    void shouldAnswer405ProblemForAWrongMethod() {
        Api session = signedIn();

        assertProblem(api().get("/api/v1/auth/login"), 405, "method_not_allowed");
        assertProblem(api().send("PATCH", "/api/v1/auth/signup", "{}", "application/json"), 405, "method_not_allowed");
        assertProblem(session.delete("/api/v1/projects"), 405, "method_not_allowed");
        assertProblem(session.post("/api/v1/session", Map.of()), 405, "method_not_allowed");
        Api.Response response = session.put("/api/v1/api-keys", Map.of());
        assertProblem(response, 405, "method_not_allowed");
        assertThat(response.header("Allow")).contains("GET").contains("POST");
    }

    @Test
    void shouldAnswer405NotA401ForAWrongMethodOnAPublicPath() {
        assertProblem(api().get("/api/v1/billing/webhook"), 405, "method_not_allowed");
        assertProblem(api().delete("/api/v1/billing/plans"), 405, "method_not_allowed");
        assertProblem(api().post("/api/v1/billing/checkout/success", Map.of()), 405, "method_not_allowed");
        assertProblem(api().post("/api/v1/billing/checkout/cancel", Map.of()), 405, "method_not_allowed");
        assertProblem(api().get("/api/v1/api-keys/verify"), 405, "method_not_allowed");
        Api.Response response = api().put("/api/v1/auth/login", Map.of());
        assertProblem(response, 405, "method_not_allowed");
        assertThat(response.header("Allow")).contains("POST");
    }

    @Test
    void shouldAnswer400NotAcceptANumberOrBooleanWhereAStringBelongs() {
        Api session = signedIn();

        assertFieldErrors(session.post("/api/v1/projects", Map.of("name", 42)), "name");
        assertFieldErrors(session.post("/api/v1/projects", Map.of("name", 4.2)), "name");
        assertFieldErrors(session.post("/api/v1/projects", Map.of("name", false)), "name");
        assertThat(session.get("/api/v1/projects").json().get("projects").size())
                .isEqualTo(1);
    }

    @Test
    void shouldRefuseAStringOrFractionWhereANumberOrBooleanBelongsAndChangeNothing() {
        Api session = signedIn();
        String keyId = session.newKeyId("rolled");
        String hookId = session.createWebhookEndpoint(Map.of("url", "https://hooks.example.invalid/strict"))
                .id();

        for (Object grace : new Object[] {"60", 60.0, 60.5, true}) {
            assertFieldErrors(
                    session.post("/api/v1/api-keys/" + keyId + "/roll", Map.of("grace_seconds", grace)),
                    "grace_seconds");
        }
        for (Object disabled : new Object[] {"true", 1, 0}) {
            assertFieldErrors(
                    session.patch("/api/v1/webhook-endpoints/" + hookId, Map.of("disabled", disabled)), "disabled");
        }
        assertFieldErrors(
                session.put("/api/v1/usage/limits", Map.of("storage_cap_bytes", "1000")), "storage_cap_bytes");

        assertThat(session.keyNames()).containsExactly("rolled");
        assertThat(session.keyId("rolled")).isEqualTo(keyId);
        assertThat(single(Boolean.class, "select disabled from webhook_endpoints where id = ?::uuid", hookId))
                .isFalse();
    }

    @Test
    void shouldRefuseAKeyTwiceInOneObjectAndChangeNothing() {
        Api session = signedIn();

        JsonNode problem = assertProblem(
                session.send("POST", "/api/v1/projects", "{\"name\":\"a\",\"name\":\"b\"}", "application/json"),
                400,
                "malformed_json");

        assertThat(problem.get("detail").asString()).contains("\"name\"").contains("twice");
        assertThat(session.get("/api/v1/projects").json().get("projects").size())
                .isEqualTo(1);
    }

    @Test
    void shouldWriteTimestampsInWholeSecondsUtcWithZ() {
        Api session = signedIn();
        session.post("/api/v1/projects", Map.of("name", "second"));

        for (JsonNode project : session.get("/api/v1/projects").json().get("projects")) {
            assertThat(project.get("created_at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
        }
    }

    @Test
    void shouldAnswer400NotA500ForAQueryStringOrFormThatCannotBeDecoded() {
        Api session = signedIn();

        // java.net.URI refuses to send a bad %-escape; a socket does
        assertThat(rawGet("/api/v1/billing/checkout/success?session_id=%ZZ"))
                .startsWith("HTTP/1.1 400")
                .contains("\"code\":\"malformed_parameters\"");
        // bytes that are not UTF-8 once decoded
        assertProblem(api().get("/api/v1/billing/checkout/success?session_id=%C0%AF"), 400, "malformed_parameters");
        assertProblem(
                session.send("POST", "/api/v1/projects?x=%C0%AF", "{\"name\":\"p\"}", "application/json"),
                400,
                "malformed_parameters");
        Api.Response nul = api().get("/api/v1/billing/checkout/success?session_id=cs_x&%00=1");
        assertProblem(nul, 400, nul.code());
        // PUT/PATCH/DELETE form bodies are parsed by nobody: the wrong method, not a failure
        assertProblem(
                session.send("PUT", "/api/v1/billing/plans", "a=%ZZ", "application/x-www-form-urlencoded"),
                405,
                "method_not_allowed");
        assertThat(session.get("/api/v1/projects").json().get("projects").size())
                .isEqualTo(1);
    }

    @Test
    void shouldAnswer415ProblemForAWrongContentType() {
        Api session = signedIn();

        assertProblem(
                session.send("POST", "/api/v1/api-keys", "{\"name\":\"x\"}", "text/plain"),
                415,
                "unsupported_media_type");
        assertProblem(
                session.send("POST", "/api/v1/projects", "<name>x</name>", "application/xml"),
                415,
                "unsupported_media_type");
        assertProblem(
                session.send("POST", "/api/v1/projects", "{\"name\":\"x\"}", null), 415, "unsupported_media_type");
    }

    @Test
    void shouldAnswer400ProblemForMalformedJson() {
        Api session = signedIn();

        for (String body : new String[] {"{", "not json", "{\"name\": }", "[1, 2", "\"unterminated"}) {
            assertProblem(session.send("POST", "/api/v1/projects", body, "application/json"), 400, "malformed_json");
            assertProblem(session.send("POST", "/api/v1/api-keys", body, "application/json"), 400, "malformed_json");
        }
    }

    @Test
    void shouldAnswer413ProblemForABodyOver64KibWithContentLength() {
        Api session = api();
        Api.Account account = session.signup();
        long projects = projectsOf(account);
        byte[] body = jsonOf(64 * KIB + 1);

        assertProblem(
                session.sendRaw("POST", "/api/v1/projects", HttpRequest.BodyPublishers.ofByteArray(body), json()),
                413,
                "payload_too_large");
        assertProblem(
                api().sendRaw("POST", "/api/v1/auth/signup", HttpRequest.BodyPublishers.ofByteArray(body), json()),
                413,
                "payload_too_large");
        assertThat(projectsOf(account)).isEqualTo(projects);
    }

    @Test
    void shouldWordA413AndA415ForTheirReader() {
        Api session = signedIn();
        byte[] body = jsonOf(64 * KIB + 1);

        JsonNode tooLarge = assertProblem(
                session.sendRaw("POST", "/api/v1/projects", HttpRequest.BodyPublishers.ofByteArray(body), json()),
                413,
                "payload_too_large");
        JsonNode tooLargeReport = assertProblem(
                Api.withKey(baseUrl(), USAGE_TOKEN)
                        .sendRaw(
                                "POST",
                                "/api/v1/usage/storage",
                                HttpRequest.BodyPublishers.ofByteArray(jsonOf(1024 * KIB + 1)),
                                json()),
                413,
                "payload_too_large");
        JsonNode noType =
                assertProblem(session.send("POST", "/api/v1/projects", "{}", null), 415, "unsupported_media_type");

        // only a usage report is told about samples
        assertThat(tooLarge.get("detail").asString())
                .isEqualTo("The request body is larger than 64 KiB: send at most 64 KiB.");
        assertThat(tooLargeReport.get("detail").asString())
                .isEqualTo("The request body is larger than 1024 KiB: send at most 1024 KiB, reporting fewer samples"
                        + " per request.");
        assertThat(noType.get("detail").asString())
                .isEqualTo(
                        "The request has no Content-Type: send the body as JSON with Content-Type: application/json.");
    }

    @Test
    void shouldAnswer413ProblemForAChunkedBodyOver64Kib() {
        Api session = signedIn();
        byte[] body = jsonOf(64 * KIB + 1);

        assertProblem(session.sendRaw("POST", "/api/v1/projects", chunked(body), json()), 413, "payload_too_large");
        assertProblem(api().sendRaw("POST", "/api/v1/auth/signup", chunked(body), json()), 413, "payload_too_large");
        assertProblem(
                api().sendRaw("POST", "/api/v1/auth/login", chunked(jsonOf(200 * KIB)), json()),
                413,
                "payload_too_large");
    }

    @Test
    void shouldAcceptABodyOfExactly64Kib() {
        Api session = signedIn();
        byte[] body = jsonOf(64 * KIB);

        Api.Response declared =
                session.sendRaw("POST", "/api/v1/projects", HttpRequest.BodyPublishers.ofByteArray(body), json());
        Api.Response streamed = session.sendRaw("POST", "/api/v1/projects", chunked(body), json());

        // the name is far over 100 characters: a validation failure, not a size one
        assertProblem(declared, 400, "validation_failed");
        assertProblem(streamed, 400, "validation_failed");
    }

    @Test
    void shouldAllowTheWebhookUpTo1Mib() {
        byte[] body = jsonOf(100 * KIB);

        Api.Response declared =
                api().sendRaw("POST", "/api/v1/billing/webhook", HttpRequest.BodyPublishers.ofByteArray(body), json());
        Api.Response streamed = api().sendRaw("POST", "/api/v1/billing/webhook", chunked(body), json());

        assertThat(declared.status()).as(declared.toString()).isNotEqualTo(413).isLessThan(500);
        assertThat(streamed.status()).as(streamed.toString()).isNotEqualTo(413).isLessThan(500);
        assertProblem(
                api().sendRaw(
                                "POST",
                                "/api/v1/billing/webhook",
                                HttpRequest.BodyPublishers.ofByteArray(jsonOf(1024 * KIB + 1)),
                                json()),
                413,
                "payload_too_large");
    }

    @Test
    void shouldAnswerAProblemForRequestsTheFirewallRejects() {
        Api session = signedIn();
        for (String path : new String[] {
            "/api/v1/session;jsessionid=abc",
            "/api/v1/%2e%2e/v1/session",
            "/api/v1/projects/%2e%2e/session",
            "/api/v1/foo%2Fbar",
            "/api/v1/foo%5Cbar",
            "/api/v1/%25%32%65",
            "/api/v1/foo%00bar",
            "//api/v1/session",
            "/api/v1/./session"
        }) {
            Api.Response response = session.get(path);
            assertThat(response.status()).as(path + " -> " + response).isBetween(400, 499);
            assertProblem(response, response.status(), response.code());
            assertThat(response.code()).as(path).isNotBlank();
        }
    }

    private String rawGet(String target) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(5000);
            socket.getOutputStream()
                    .write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldAnswerNoHtmlForARequestLineTomcatCannotParse() throws Exception {
        for (String target : new String[] {"/api/v1/{x}", "/api/v1/a|b", "/api/v1/<script>"}) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(5000);
                socket.getOutputStream()
                        .write(("GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(answer)
                        .as(target)
                        .startsWith("HTTP/1.1 400")
                        .contains("application/problem+json")
                        .contains("\"code\":\"bad_request\"")
                        .doesNotContainIgnoringCase("<html");
            }
        }
    }

    @Test
    void shouldAnswer404InTheProblemShapeNamingWhereTheEndpointsAreListed() {
        for (String path : new String[] {"/api/v1/nothing-here", "/api/v1", "/api/v1/auth/signup/more"}) {
            JsonNode problem = assertProblem(api().get(path), 404, "not_found");

            assertThat(problem.get("detail").asString())
                    .as(path)
                    .doesNotContainIgnoringCase("static resource")
                    .contains("GET " + path)
                    .contains("/v3/api-docs");
        }
    }

    @Test
    void shouldAnswer415NamingApplicationJson() {
        Api session = signedIn();

        for (String type : new String[] {"text/plain", null}) {
            JsonNode problem = assertProblem(
                    session.send("POST", "/api/v1/api-keys", "{\"name\":\"x\"}", type), 415, "unsupported_media_type");

            assertThat(problem.get("detail").asString())
                    .as(String.valueOf(type))
                    .contains("application/json")
                    .doesNotContain("'null'");
        }
        assertThat(session.keys()).isEmpty();
    }

    @Test
    void shouldAnswer405NamingTheMethodsThePathTakes() {
        Api.Response response = api().put("/api/v1/auth/login", Map.of());

        JsonNode problem = assertProblem(response, 405, "method_not_allowed");
        assertThat(response.header("Allow")).isEqualTo("POST");
        assertThat(problem.get("detail").asString()).contains("PUT").contains("POST");
    }

    @Test
    void shouldAnswerEveryProblemWithOneContentTypeAndEachCodeWithOneWording() {
        Api session = signedIn();
        Api admin = Api.withKey(baseUrl(), session.createKey("admin", "admin"));
        String id = UUID.randomUUID().toString();
        List<Api.Response> answers = List.of(
                api().get("/api/v1/api-keys"),
                Api.withKey(baseUrl(), "kv_" + "x".repeat(32)).get("/api/v1/projects"),
                api().delete("/api/v1/api-keys/" + id),
                api().delete("/api/v1/api-keys/verify"),
                api().post("/api/v1/usage/storage", Map.of()),
                admin.delete("/api/v1/api-keys/verify"),
                admin.get("/api/v1/nothing-here"),
                admin.put("/api/v1/api-keys", Map.of()),
                admin.send("POST", "/api/v1/api-keys", "{}", "text/plain"),
                admin.send("POST", "/api/v1/api-keys", "{", "application/json"),
                admin.post("/api/v1/api-keys", Map.of("name", "")),
                api().get("/api/v1/billing/checkout/success?session_id=%C0%AF"),
                admin.sendRaw(
                        "POST",
                        "/api/v1/projects",
                        HttpRequest.BodyPublishers.ofByteArray(jsonOf(64 * KIB + 1)),
                        json()),
                admin.sendRaw("POST", "/api/v1/projects", chunked(jsonOf(64 * KIB + 1)), json()),
                admin.sendRaw(
                        "POST",
                        "/api/v1/projects",
                        HttpRequest.BodyPublishers.ofByteArray(new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"'}),
                        json()),
                admin.send("POST", "/api/v1/api-keys", "{}", "*/*"));

        Set<String> types = new TreeSet<>();
        Map<String, Set<String>> wordings = new TreeMap<>();
        for (Api.Response answer : answers) {
            assertProblem(answer, answer.status(), answer.code());
            types.add(answer.header("Content-Type"));
            wordings.computeIfAbsent(answer.code(), code -> new TreeSet<>())
                    .add(answer.json().get("detail").asString());
        }
        assertThat(rawGet("/api/v1/{x}")).contains("Content-Type: application/problem+json\r\n");
        assertThat(types).containsExactly("application/problem+json");
        // one wording per code, whichever layer answers (a 405 or 415 names the method or type sent: one template)
        for (String code : List.of("payload_too_large", "malformed_json", "validation_failed")) {
            assertThat(wordings.get(code)).as(code).hasSize(1);
        }
        // a 401 speaks to its reader: the storage backend's token is named to usage reporting only
        assertThat(wordings.get("unauthenticated"))
                .containsExactlyInAnyOrder(
                        "Sign in, or send Authorization: Bearer with an API key (kv_...).",
                        "Send Authorization: Bearer with one of the tokens set in USAGE_API_TOKEN (the storage"
                                + " backend's).");
        assertThat(wordings.get("unsupported_media_type"))
                .hasSize(2)
                .allMatch(detail -> detail.endsWith(
                        "is not supported: send the body as JSON with Content-Type: application/json."));
    }

    @Test
    void shouldTakeOnlyPostOnTheVerifyPathNeverAnIdRoute() {
        Api session = signedIn();
        String adminKey = session.createKey("admin", "admin");
        Api admin = Api.withKey(baseUrl(), adminKey);

        for (String method : new String[] {"DELETE", "PATCH", "PUT", "GET"}) {
            Api.Response response = admin.send(method, "/api/v1/api-keys/verify", null, null);
            assertProblem(response, 405, "method_not_allowed");
            assertThat(response.header("Allow")).as(method).isEqualTo("POST");
        }
        Api.Response options = admin.send("OPTIONS", "/api/v1/api-keys/verify", null, null);
        assertThat(options.header("Allow")).doesNotContain("PATCH").doesNotContain("DELETE");
        assertThat(Api.withKey(baseUrl(), adminKey)
                        .post("/api/v1/api-keys/verify")
                        .status())
                .isEqualTo(200);
        assertThat(session.keyNames()).containsExactly("admin");
    }

    @Test
    void shouldAnswer400ForAnIdThatIsNotAUuidOnEveryIdRoute() {
        Api session = signedIn();
        Api admin = Api.withKey(baseUrl(), session.createKey("admin", "admin"));

        for (String id : new String[] {"VERIFY", "roll", "not-a-uuid", "123"}) {
            for (Api.Response response : List.of(
                    admin.delete("/api/v1/api-keys/" + id),
                    admin.patch("/api/v1/api-keys/" + id, Map.of("name", "x")),
                    admin.post("/api/v1/api-keys/" + id + "/roll"),
                    admin.get("/api/v1/api-keys/" + id))) {
                JsonNode problem = assertProblem(response, 400, "validation_failed");
                assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("id");
                assertThat(problem.get("errors").get(0).get("message").asString())
                        .contains("UUID");
            }
        }
        assertThat(session.keyNames()).containsExactly("admin");
    }

    @Test
    void shouldNeverAnswer5xxForTheErrorPathItself() {
        Api.Response response = api().get("/error");

        assertThat(response.status()).as(response.toString()).isLessThan(500);
        assertThat(response.header("Content-Type")).startsWith("application/problem+json");
    }
}
