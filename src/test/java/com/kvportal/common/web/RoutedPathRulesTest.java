package com.kvportal.common.web;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every rule keyed on a path sees the path as Spring MVC routes it: a percent-encoded letter reaches the same endpoint
 * and meets the same rule (the abuse limits: AbuseLimitsTest; the actuator guard: ActuatorGuardTest).
 */
class RoutedPathRulesTest extends IntegrationTest {

    @Test
    void shouldGiveTheWebhookItsOwnBodyLimitOnAnEncodedPath() {
        String body = "{\"padding\":\"" + "x".repeat(100 * 1024) + "\"}";
        for (String path : new String[] {"/api/v1/billing/webhook", "/api/v1/billing/%77ebhook"}) {
            Api.Response response = api().sendRaw(
                            "POST",
                            path,
                            HttpRequest.BodyPublishers.ofString(body),
                            Map.of("Content-Type", "application/json", "Stripe-Signature", "t=1,v1=00"));
            assertProblem(response, 400, "signature_invalid");
        }
    }

    @Test
    void shouldExemptLoginFromCsrfOnAnEncodedPath() {
        Api api = api().withoutCsrfEcho();
        Api.Account account = api.signup();
        for (String path : new String[] {"/api/v1/auth/login", "/api/v1/auth/%6cogin"}) {
            Api.Response response =
                    api.post(path, Map.of("email", account.email(), "password", "correct horse battery"));
            assertThat(response.status()).as(path + " " + response).isEqualTo(200);
        }
    }

    @Test
    void shouldLetAKeyRevokeItselfOnAnEncodedPath() {
        Api session = signedUp();
        String raw = session.createKey("self", "read");
        String id = session.keyId("self");
        String encoded = "%" + Integer.toHexString(id.charAt(0)) + id.substring(1);

        assertThat(Api.withKey(baseUrl(), raw)
                        .delete("/api/v1/api-keys/" + encoded)
                        .status())
                .isEqualTo(204);
        assertProblem(Api.withKey(baseUrl(), raw).post("/api/v1/api-keys/verify"), 401, "api_key_revoked");
    }
}
