package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import org.junit.jupiter.api.Test;

class ApiKeyLifecycleTest extends IntegrationTest {

    @Test
    void shouldCreateVerifyAndRevokeAKey() {
        Api session = api();
        session.signup();
        String raw = session.createKey("ci");
        Api key = Api.withKey(baseUrl(), raw);

        assertThat(key.post("/api/v1/api-keys/verify").status()).isEqualTo(200);

        String id = session.get("/api/v1/api-keys")
                .json()
                .get("keys")
                .get(0)
                .get("id")
                .asString();
        Api.Response deleted = session.delete("/api/v1/api-keys/" + id);
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);

        Api.Response refused = key.post("/api/v1/api-keys/verify");
        assertThat(refused.status()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("api_key_revoked");
    }
}
