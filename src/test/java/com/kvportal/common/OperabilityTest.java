package com.kvportal.common;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

@ExtendWith(OutputCaptureExtension.class)
class OperabilityTest extends IntegrationTest {

    @Autowired
    HealthEndpointGroups healthGroups;

    @Autowired
    ReadyLog readyLog;

    @Test
    void shouldReportLivenessAndReadinessUp() {
        Api api = api();
        for (String path : new String[] {
            "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness", "/livez", "/readyz"
        }) {
            Api.Response response = api.get(path);
            assertThat(response.status()).as(path + " " + response).isEqualTo(200);
            assertThat(response.json().get("status").asString()).as(path).isEqualTo("UP");
        }
    }

    @Test
    void shouldIncludeTheDatabaseInReadinessOnly() {
        assertThat(healthGroups.get("readiness").isMember("db")).isTrue();
        assertThat(healthGroups.get("liveness").isMember("db")).isFalse();
    }

    @Test
    void shouldExposeNoOtherActuatorEndpoint() {
        for (String path :
                new String[] {"/actuator/env", "/actuator/beans", "/actuator/heapdump", "/actuator/loggers"}) {
            assertThat(api().get(path).status()).as(path).isEqualTo(404);
        }
    }

    @Test
    void shouldDescribeTheWholeApiInOpenApi() {
        Api.Response response = api().get("/v3/api-docs");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        assertThat(response.header("Content-Type")).startsWith("application/json");
        JsonNode document = response.json();
        assertThat(document.get("openapi").asString()).startsWith("3.");
        List<String> paths = new ArrayList<>(document.get("paths").propertyNames());
        assertThat(paths)
                .contains(
                        "/api/v1/api-keys",
                        "/api/v1/api-keys/verify",
                        "/api/v1/api-keys/{id}",
                        "/api/v1/auth/signup",
                        "/api/v1/auth/login",
                        "/api/v1/auth/logout",
                        "/api/v1/session",
                        "/api/v1/session/project",
                        "/api/v1/projects")
                .allMatch(path -> path.startsWith("/api/"));
    }

    @Test
    void shouldServeABrowsableApiUiThatNeedsNoInlineScript() {
        Api api = api();

        Api.Response entry = api.get("/swagger-ui.html");
        assertThat(entry.status()).as(entry.toString()).isIn(200, 302);
        if (entry.status() == 302) {
            assertThat(entry.header("Location")).contains("/swagger-ui/index.html");
        }

        Api.Response page = api.get("/swagger-ui/index.html");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.header("Content-Type")).startsWith("text/html");
        assertThat(page.body()).contains("swagger-ui");
        // the content security policy is default-src 'self': every script must come from a file
        Matcher scripts =
                Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL).matcher(page.body());
        while (scripts.find()) {
            assertThat(scripts.group(1)).contains("src=");
            assertThat(scripts.group(2)).isBlank();
        }
        assertThat(api.get("/swagger-ui/swagger-initializer.js").status()).isEqualTo(200);
        assertThat(api.get("/v3/api-docs/swagger-config").status()).isEqualTo(200);
    }

    @Test
    void shouldPrintAReadyLineWhoseEveryLinkAnswers(CapturedOutput output) {
        int before = output.getAll().length();
        readyLog.ready();

        String line = output.getAll().substring(before);
        Matcher links = Pattern.compile("https?://\\S+").matcher(line);
        List<String> paths = new ArrayList<>();
        while (links.find()) {
            paths.add(URI.create(links.group()).getRawPath());
        }
        assertThat(paths).as(line).hasSizeGreaterThanOrEqualTo(3);
        for (String path : paths) {
            Api.Response response = api().get(path);
            if (response.status() / 100 == 3) {
                response = api().get(URI.create(response.header("Location")).getRawPath());
            }
            assertThat(response.status()).as(path + " " + response).isEqualTo(200);
        }
    }

    @Test
    void shouldNeverLogARawKeyOrAPassword(CapturedOutput output) {
        String password = "pw-" + UUID.randomUUID();
        String wrongPassword = "wrong-" + UUID.randomUUID();
        String tooLong = "long-" + UUID.randomUUID() + "x".repeat(100);
        Api session = api();
        String email = "logs-" + UUID.randomUUID() + "@example.com";

        assertThat(session.post("/api/v1/auth/signup", Map.of("email", email, "password", password))
                        .status())
                .isEqualTo(201);
        api().post("/api/v1/auth/signup", Map.of("email", "x" + email, "password", tooLong));
        api().post("/api/v1/auth/login", Map.of("email", email, "password", wrongPassword));
        assertThat(api().post("/api/v1/auth/login", Map.of("email", email, "password", password))
                        .status())
                .isEqualTo(200);
        session.verifyEmail();
        String raw = session.createKey("logged?", "admin");
        Api key = Api.withKey(baseUrl(), raw);
        assertThat(key.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        assertThat(key.get("/api/v1/projects").status()).isEqualTo(200);
        api().send("POST", "/api/v1/api-keys/verify", "{\"key\":\"" + raw + "\"}", "application/json");
        LoggerFactory.getLogger(OperabilityTest.class).info("log capture is working");

        assertThat(output.getAll()).contains("log capture is working");
        assertThat(output.getAll())
                .doesNotContain(raw)
                .doesNotContain(raw.substring(3))
                .doesNotContain(password)
                .doesNotContain(wrongPassword)
                .doesNotContain(tooLong);
    }
}
