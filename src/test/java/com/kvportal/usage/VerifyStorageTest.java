package com.kvportal.usage;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Verify's plan fields: what the storage backend needs to enforce the allowance. */
class VerifyStorageTest extends SignedInTest {

    static final long GIB = 1L << 30;

    JsonNode verify(String key) {
        Api.Response response = Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    @Test
    void shouldCarryTheTierAndTheStorageOfAFreshOrganization() {
        String key = session.createKey("backend");

        JsonNode body = verify(key);

        assertThat(body.get("tier").asString()).isEqualTo("free");
        assertThat(body.get("storage").toString())
                .isEqualTo("{\"used_bytes\":0,\"allowance_bytes\":1073741824,\"write_allowed\":true,\"reason\":null}");
    }

    @Test
    void shouldRefuseWritesOfAFreeOrganizationAtItsAllowanceWithinFiveSecondsAndAllowThemAgainBelowIt() {
        String key = session.createKey("backend");

        report(baseUrl(), account.projectId(), GIB, Instant.now());
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !verify(key).get("storage").get("write_allowed").asBoolean());
        assertThat(verify(key).get("storage").get("used_bytes").asLong()).isEqualTo(GIB);

        report(baseUrl(), account.projectId(), GIB - 1, Instant.now());
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> verify(key).get("storage").get("write_allowed").asBoolean());
        assertThat(verify(key).get("storage").get("used_bytes").asLong()).isEqualTo(GIB - 1);
    }

    @Test
    void shouldTellTheProTierAndAllowWritesAboveTheAllowanceWithinFiveSecondsOfTheSubscription() {
        String key = session.createKey("backend");
        report(baseUrl(), account.projectId(), 150 * GIB, Instant.now());
        assertThat(verify(key).get("storage").get("write_allowed").asBoolean()).isFalse();

        Subscribe.pro(session, api());

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> verify(key).get("tier").asString().equals("pro"));
        assertThat(verify(key).get("storage").toString())
                .isEqualTo("{\"used_bytes\":" + 150 * GIB
                        + ",\"allowance_bytes\":107374182400,\"write_allowed\":true,\"reason\":null}");
    }

    @Test
    void shouldSumTheOrganizationsProjects() {
        UUID second = session.createProject("second");
        String key = session.createKey("backend");

        report(baseUrl(), account.projectId(), 600 * 1024 * 1024L, Instant.now());
        report(baseUrl(), second, 500 * 1024 * 1024L, Instant.now());

        await().atMost(Duration.ofSeconds(5))
                .until(() -> !verify(key).get("storage").get("write_allowed").asBoolean());
        assertThat(verify(key).get("storage").get("used_bytes").asLong()).isEqualTo(1100 * 1024 * 1024L);
    }

    @Test
    void shouldSeeSamplesStoredByAnotherInstanceWithinFiveSeconds() {
        // another instance's accepted samples reach this one through the background refresh only
        String key = session.createKey("backend");

        jdbc.sql("insert into usage_samples (id, project_id, organization_id, bytes, at) values (?, ?, ?, ?, ?)")
                .params(
                        "elsewhere-" + UUID.randomUUID(),
                        account.projectId(),
                        account.organizationId(),
                        2 * GIB,
                        Timestamp.from(Instant.now()))
                .update();

        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> verify(key).get("storage").get("used_bytes").asLong() == 2 * GIB);
        assertThat(verify(key).get("storage").get("write_allowed").asBoolean()).isFalse();
    }

    @Test
    void shouldKeepTheNewestSampleOfAProjectWhenAnOlderOneArrivesLate() {
        String key = session.createKey("backend");
        report(baseUrl(), account.projectId(), 100, Instant.now());

        report(baseUrl(), account.projectId(), 5 * GIB, Instant.now().minus(Duration.ofHours(2)));

        assertThat(verify(key).get("storage").get("used_bytes").asLong()).isEqualTo(100);
    }
}
