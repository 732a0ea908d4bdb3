package com.kvportal.common.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

/**
 * The requests that the HTTP server or the security firewall refuses before any endpoint is chosen (a path with
 * {@code //}, {@code ;}, an encoded slash or dot segment, a method nobody knows, headers over the limit): each is a
 * problem document with a code and a detail saying what to send instead, sent as raw bytes (no client normalizes
 * them away), and none logs a stack trace, for each is the client's mistake.
 */
@ExtendWith(OutputCaptureExtension.class)
class ServerRefusalsTest extends IntegrationTest {

    private record Answer(int status, String head, JsonNode problem) {}

    /** Sends the request head as is, and reads the whole answer. */
    private Answer raw(String requestLine, String headers) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                    .write((requestLine + "\r\nHost: 127.0.0.1\r\n" + headers + "Connection: close\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int split = answer.indexOf("\r\n\r\n");
            assertThat(split).as(requestLine + " -> " + answer).isPositive();
            String head = answer.substring(0, split);
            String body = answer.substring(split + 4);
            if (head.toLowerCase().contains("transfer-encoding: chunked")) {
                body = body.substring(body.indexOf("\r\n") + 2, body.lastIndexOf("\r\n0\r\n"));
            }
            assertThat(head)
                    .as(requestLine + " -> " + answer)
                    .containsIgnoringCase("Content-Type: application/problem+json");
            return new Answer(Integer.parseInt(head.substring(9, 12)), head, Api.JSON.readTree(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertRefusal(Answer answer, int status, String code, String... said) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.problem().get("status").asInt()).isEqualTo(status);
        assertThat(answer.problem().get("code").asString())
                .as(answer.toString())
                .isEqualTo(code);
        assertThat(answer.problem().get("type").asString()).endsWith("/" + code);
        assertThat(answer.problem().get("detail").asString())
                .as(answer.toString())
                .contains(said);
    }

    @Test
    void shouldAnswerAnEmptyPathSegmentNamingIt() {
        for (String path : new String[] {"//api/v1/session", "/api/v1//session", "/api/v1/%2F%2Fsession"}) {
            assertRefusal(raw("GET " + path + " HTTP/1.1", ""), 400, "bad_request", "/api/v1/session");
        }
    }

    @Test
    void shouldAnswerAPathParameterSayingWhereTheSessionGoes() {
        for (String path : new String[] {"/api/v1/session;jsessionid=abc", "/api/v1;x=1/session"}) {
            assertRefusal(raw("GET " + path + " HTTP/1.1", ""), 400, "bad_request", ";", "cookie");
        }
    }

    @Test
    void shouldAnswerAnEncodedSlashOrDotSegment() {
        for (String path : new String[] {
            "/api/v1/projects/..%2fsession", "/api/v1/%2e%2e/session", "/api/v1/./session", "/api/v1/a%5Cb"
        }) {
            assertRefusal(raw("GET " + path + " HTTP/1.1", ""), 400, "bad_request", "/v3/api-docs");
        }
    }

    @Test
    void shouldAnswerAMethodNobodyKnowsNamingTheMethodsToSend() {
        Answer answer = raw("BREW /api/v1/session HTTP/1.1", "");

        assertRefusal(answer, 405, "method_not_allowed", "BREW", "GET", "POST", "PUT", "PATCH", "DELETE");
        assertThat(answer.head()).contains("Allow: GET, POST, PUT, PATCH, DELETE");
    }

    @Test
    void shouldAnswerHeadersOverTheLimitWithoutAStackTraceInTheLog(CapturedOutput output) {
        int before = output.getAll().length();

        for (int i = 0; i < 2; i++) {
            Answer answer = raw("GET /api/v1/session HTTP/1.1", "X-Big: " + "x".repeat(20_000) + "\r\n");
            assertRefusal(answer, 431, "headers_too_large", "KiB");
        }

        String logged = output.getAll().substring(before);
        assertThat(logged).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void shouldLogNoStackTraceForAnyOfThem(CapturedOutput output) {
        int before = output.getAll().length();
        raw("GET //api/v1/session HTTP/1.1", "");
        raw("GET /api/v1/session;jsessionid=abc HTTP/1.1", "");
        raw("GET /api/v1/..%2fsession HTTP/1.1", "");
        raw("BREW /api/v1/session HTTP/1.1", "");
        raw("GET /api/v1/{x} HTTP/1.1", "");

        String logged = output.getAll().substring(before);
        assertThat(logged).doesNotContain("\tat ").doesNotContain("Exception");
    }
}
