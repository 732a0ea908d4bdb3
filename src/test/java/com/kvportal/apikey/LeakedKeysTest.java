package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.Signature;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/** GitHub's secret scanning partner endpoint, with a key pair of the test's own standing in for GitHub's. */
class LeakedKeysTest extends IntegrationTest {

    static final String PATH = "/api/v1/security/leaked-keys";
    static final String KEY_ID = "90a421169f0a406205f1563a953312f0be898d3c7b6c06b681aa86a874555f4a";
    static final KeyPair GITHUB = keyPair();
    static final KeyPair STRANGER = keyPair();

    @DynamicPropertySource
    static void secretScanning(DynamicPropertyRegistry registry) {
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(GITHUB.getPublic().getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
        String document = Api.JSON.writeValueAsString(Map.of(
                "public_keys",
                List.of(
                        Map.of("key_identifier", "an old one", "key", pem, "is_current", false),
                        Map.of("key_identifier", KEY_ID, "key", pem, "is_current", true))));
        registry.add("SECRET_SCANNING_PUBLIC_KEYS", () -> document);
    }

    @Test
    void shouldRevokeAReportedLiveKeyAtOnceRecordItAndLabelEveryToken() {
        Api session = signedUp();
        String leaked = session.createKey("billing-worker", "admin");
        String leakedId = session.keyId("billing-worker");
        String revokedBefore = session.createKey("old");
        session.delete("/api/v1/api-keys/" + session.keyId("old"));
        String kept = session.createKey("kept");
        String lookalike = "kv_" + "A".repeat(32);
        String body = Api.JSON.writeValueAsString(List.of(
                report(leaked),
                report(revokedBefore),
                report(lookalike),
                Map.of("token", "ghp_notours", "type", "kv_portal_api_key")));

        Api.Response response = send(body, KEY_ID, sign(GITHUB, body));

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode verdicts = response.json();
        assertThat(verdicts.size()).isEqualTo(4);
        assertThat(verdicts.get(0).get("token_hash").asString()).isEqualTo(sha256Hex(leaked));
        assertThat(verdicts.get(0).get("token_type").asString()).isEqualTo("kv_portal_api_key");
        assertThat(verdicts.findValuesAsString("label"))
                .containsExactly("true_positive", "true_positive", "false_positive", "false_positive");
        assertProblem(Api.withKey(baseUrl(), leaked).post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
        assertProblem(Api.withKey(baseUrl(), leaked).get("/api/v1/api-keys"), 401, "unauthenticated");
        assertThat(Api.withKey(baseUrl(), kept).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);

        JsonNode event =
                session.get("/api/v1/audit-events").json().get("events").get(0);
        assertThat(event.get("action").asString()).isEqualTo("api_key.leaked");
        assertThat(event.get("actor").get("type").asString()).isEqualTo("system");
        assertThat(event.get("target").get("id").asString()).isEqualTo(leakedId);
        assertThat(event.get("target").get("label").asString()).isEqualTo("billing-worker");
        assertThat(event.get("details").get("url").asString()).isEqualTo("https://github.com/octo/repo/blob/main/x");
        assertThat(event.get("details").get("source").asString()).isEqualTo("content");

        Api.Response again = send(body, KEY_ID, sign(GITHUB, body));
        assertThat(again.status()).isEqualTo(200);
        assertThat(session.get("/api/v1/audit-events").json().get("events").findValuesAsString("action"))
                .containsOnlyOnce("api_key.leaked");
    }

    @Test
    void shouldChangeNothingForATamperedBodyOrAnyOtherBadSignature() {
        Api session = signedUp();
        String key = session.createKey("innocent");
        String body = Api.JSON.writeValueAsString(List.of(report("kv_" + "B".repeat(32))));
        String tampered = Api.JSON.writeValueAsString(List.of(report(key)));
        String signature = sign(GITHUB, body);

        assertProblem(send(tampered, KEY_ID, signature), 400, "signature_invalid");
        assertProblem(send(tampered, KEY_ID, sign(STRANGER, tampered)), 400, "signature_invalid");
        assertProblem(send(tampered, "unknown id", sign(GITHUB, tampered)), 400, "signature_invalid");
        assertProblem(send(tampered, null, sign(GITHUB, tampered)), 400, "signature_invalid");
        assertProblem(send(tampered, KEY_ID, null), 400, "signature_invalid");
        assertProblem(send(tampered, KEY_ID, "not base64!"), 400, "signature_invalid");
        assertProblem(
                send(tampered, KEY_ID, Base64.getEncoder().encodeToString(new byte[8])), 400, "signature_invalid");

        assertThat(Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify").status())
                .isEqualTo(200);
        assertThat(session.get("/api/v1/audit-events").json().get("events").findValuesAsString("action"))
                .doesNotContain("api_key.leaked");
    }

    @Test
    void shouldRefuseASignedBodyThatIsNotAListOfReports() {
        assertProblem(send("{", KEY_ID, sign(GITHUB, "{")), 400, "malformed_json");
        String object = "{\"token\":\"kv_x\"}";
        assertFieldErrors(send(object, KEY_ID, sign(GITHUB, object)), "body");
        String noToken = "[{\"type\":\"kv_portal_api_key\"}]";
        assertFieldErrors(send(noToken, KEY_ID, sign(GITHUB, noToken)), "[0].token");
        assertThat(send("[]", KEY_ID, sign(GITHUB, "[]")).body()).isEqualTo("[]");
    }

    private Api.Response send(String body, String identifier, String signature) {
        Map<String, String> headers = new java.util.LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        if (identifier != null) {
            headers.put("Github-Public-Key-Identifier", identifier);
        }
        if (signature != null) {
            headers.put("Github-Public-Key-Signature", signature);
        }
        // no session, no key, no CSRF token: GitHub has none of them
        return api().withoutCsrfEcho()
                .sendRaw("POST", PATH, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8), headers);
    }

    private static Map<String, String> report(String token) {
        return Map.of(
                "token",
                token,
                "type",
                "kv_portal_api_key",
                "url",
                "https://github.com/octo/repo/blob/main/x",
                "source",
                "content");
    }

    static String sign(KeyPair pair, String body) {
        try {
            Signature ecdsa = Signature.getInstance("SHA256withECDSA");
            ecdsa.initSign(pair.getPrivate());
            ecdsa.update(body.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(ecdsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static KeyPair keyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    static String sha256Hex(String token) throws RuntimeException {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
