package com.kvportal.security.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import org.junit.jupiter.api.Test;

/**
 * Every actuator endpoint but health needs {@code Authorization: Bearer <METRICS_TOKEN>}; a missing or wrong token
 * answers 404, as a path that does not exist. Without the token configured: AbuseLimitsTest's second instance.
 */
class ActuatorGuardTest extends IntegrationTest {

    private static final String[] GUARDED = {
        "/actuator/prometheus", "/actuator/info", "/actuator", "/%61ctuator/prometheus", "/actuator/%70rometheus"
    };

    @Test
    void shouldAnswer404WithoutTheToken() {
        for (String path : GUARDED) {
            assertThat(api().get(path).status()).as(path).isEqualTo(404);
            assertThat(Api.withKey(baseUrl(), "wrong").get(path).status())
                    .as(path)
                    .isEqualTo(404);
            assertThat(Api.withKey(baseUrl(), METRICS_TOKEN + "x").get(path).status())
                    .as(path)
                    .isEqualTo(404);
            assertThat(Api.withKey(baseUrl(), METRICS_TOKEN.substring(1))
                            .get(path)
                            .status())
                    .as(path)
                    .isEqualTo(404);
        }
        Api.Response absent = api().get("/actuator/prometheus");
        assertThat(absent.body()).doesNotContain("jvm_").doesNotContain("# HELP");
    }

    @Test
    void shouldServeEveryGuardedEndpointWithTheToken() {
        for (String path : GUARDED) {
            assertThat(metrics().get(path).status()).as(path).isEqualTo(200);
        }
        assertThat(metrics().get("/actuator/prometheus").body()).contains("# HELP");
    }

    @Test
    void shouldKeepHealthPublic() {
        for (String path : new String[] {
            "/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness", "/livez", "/readyz"
        }) {
            assertThat(api().get(path).status()).as(path).isEqualTo(200);
        }
    }
}
