package com.kvportal.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** Assertions on RFC 9457 problem documents: the shape every error of the API must have. */
public final class Problems {

    private Problems() {}

    /** The answer is a problem document with this status and code, no HTML and no stack trace. */
    public static JsonNode assertProblem(Api.Response response, int status, String code) {
        assertThat(response.status()).as(response.toString()).isEqualTo(status);
        assertThat(response.header("Content-Type")).as(response.toString()).startsWith("application/problem+json");
        assertThat(response.body())
                .as("no HTML, no stack trace")
                .doesNotContainIgnoringCase("<html")
                .doesNotContain("Exception")
                .doesNotContain("\tat ")
                .doesNotContain("at com.")
                .doesNotContain("at org.");
        JsonNode problem = response.json();
        for (String member : List.of("type", "title", "status", "detail", "code")) {
            assertThat(problem.has(member)).as(member + " in " + response).isTrue();
        }
        assertThat(problem.get("status").asInt()).isEqualTo(status);
        assertThat(problem.get("code").asString()).as(response.toString()).isEqualTo(code);
        return problem;
    }

    /** A 400 {@code validation_failed} naming exactly these fields. */
    public static void assertFieldErrors(Api.Response response, String... fields) {
        JsonNode problem = assertProblem(response, 400, "validation_failed");
        List<String> named = new ArrayList<>();
        problem.get("errors").forEach(error -> {
            assertThat(error.path("message").asString()).isNotBlank();
            named.add(error.get("field").asString());
        });
        assertThat(named).as(response.toString()).containsExactlyInAnyOrder(fields);
    }
}
