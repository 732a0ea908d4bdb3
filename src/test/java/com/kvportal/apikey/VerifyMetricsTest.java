package com.kvportal.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class VerifyMetricsTest extends IntegrationTest {

    private static final String UNKNOWN = "kv_AAAAAAAAAAAAAAAAAAAAAAAAAA36zwQ7";

    @Test
    void shouldExposeVerifyAndKeyCacheMetricsAtActuatorPrometheusWithoutTenantData() {
        Api session = api();
        Api.Account account = session.signup();
        String raw = session.createKey("metrics", "read");
        String id = session.keys().get(0).get("id").asString();
        await().atMost(Duration.ofSeconds(20)).until(() -> value(scrape(), "kvportal_key_cache_lease_trusted") == 1);
        double memoryBefore = value(scrape(), "kvportal_key_cache_answers_total{from=\"memory\"}");
        double okBefore = value(scrape(), "kvportal_verify_outcomes_total{code=\"ok\"}");

        Api key = Api.withKey(baseUrl(), raw);
        assertThat(key.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        assertThat(key.post("/api/v1/api-keys/verify").status()).isEqualTo(200);
        assertThat(Api.withKey(baseUrl(), UNKNOWN)
                        .post("/api/v1/api-keys/verify")
                        .code())
                .isEqualTo("invalid_api_key");
        assertThat(session.delete("/api/v1/api-keys/" + id).status()).isEqualTo(204);
        assertThat(key.post("/api/v1/api-keys/verify").code()).isEqualTo("api_key_revoked");

        String metrics = scrape();
        assertThat(value(metrics, "kvportal_verify_outcomes_total{code=\"ok\"}"))
                .isGreaterThanOrEqualTo(okBefore + 2);
        assertThat(value(metrics, "kvportal_verify_outcomes_total{code=\"invalid_api_key\"}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(metrics, "kvportal_verify_outcomes_total{code=\"api_key_revoked\"}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(value(metrics, "kvportal_verify_latency_seconds_count")).isGreaterThanOrEqualTo(4);
        assertThat(metrics).contains("kvportal_verify_latency_seconds_bucket{le=");
        assertThat(value(metrics, "kvportal_key_cache_answers_total{from=\"memory\"}"))
                .as("the second verify answered from memory")
                .isGreaterThan(memoryBefore);
        assertThat(metrics)
                .contains("cache_gets_total{cache=\"api_keys\"")
                .contains("cache_size{cache=\"api_keys\"")
                .contains("cache_size{cache=\"api_keys_unknown\"");
        assertThat(value(metrics, "kvportal_key_invalidation_wait_seconds_count{outcome=\"acknowledged\"}"))
                .isGreaterThanOrEqualTo(1);
        assertThat(metrics).contains("kvportal_key_invalidation_wait_seconds_bucket{outcome=\"acknowledged\"");
        assertThat(value(metrics, "kvportal_key_cache_leases_live")).isGreaterThanOrEqualTo(1);

        assertThat(metrics)
                .as("no tenant data in metrics")
                .doesNotContain(account.customerId().toString())
                .doesNotContain(account.organizationId().toString())
                .doesNotContain(account.projectId().toString())
                .doesNotContain(id)
                .doesNotContain(account.email())
                .doesNotContain(raw.substring(3, 12));
    }

    @Test
    void shouldKeepEveryOtherActuatorEndpointClosed() {
        Api anonymous = api();
        for (String path : new String[] {
            "/actuator/env", "/actuator/metrics", "/actuator/beans", "/actuator/heapdump", "/actuator/configprops"
        }) {
            assertThat(anonymous.get(path).status()).as(path).isEqualTo(404);
        }
    }

    private String scrape() {
        Api.Response response = metrics().get("/actuator/prometheus");
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    /** The value of a sample line, by its exact name and labels as Prometheus writes them; 0 when absent. */
    private static double value(String metrics, String sample) {
        Matcher matcher = Pattern.compile(
                        "^" + Pattern.quote(sample) + "(?:\\{[^}]*})? ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(metrics);
        if (matcher.find()) {
            return Double.parseDouble(matcher.group(1));
        }
        // labels beyond the given ones (e.g. {code="ok",...}): match the prefix without the closing brace
        String open = sample.endsWith("}") ? sample.substring(0, sample.length() - 1) : sample + "{";
        Matcher labelled = Pattern.compile("^" + Pattern.quote(open) + "[^}]*} ([0-9.eE+-]+)$", Pattern.MULTILINE)
                .matcher(metrics);
        return labelled.find() ? Double.parseDouble(labelled.group(1)) : 0;
    }
}
