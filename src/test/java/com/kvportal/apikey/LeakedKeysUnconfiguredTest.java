package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertProblem;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeakedKeysUnconfiguredTest extends IntegrationTest {

    @Test
    void shouldAnswer404WhileNoSecretScanningKeysAreSet() {
        Api session = signedUp();
        String key = session.createKey("safe");

        assertProblem(api().post(LeakedKeysTest.PATH, List.of(java.util.Map.of("token", key))), 404, "not_found");
        assertProblem(session.post(LeakedKeysTest.PATH, List.of()), 404, "not_found");
        org.assertj.core.api.Assertions.assertThat(Api.withKey(baseUrl(), key)
                        .post("/api/v1/api-keys/verify")
                        .status())
                .isEqualTo(200);
    }
}
