package com.kvportal.usage;

import static com.kvportal.support.Problems.assertProblem;
import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import com.kvportal.support.StorageSamples;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** {@code GET /api/v1/usage} and {@code GET /api/v1/usage/periods}. */
class ReadUsageTest extends SignedInTest {

    static final long GIB = 1L << 30;

    @Test
    void shouldShowAFreshOrganizationOnTheFreePlanOverTheCalendarMonth() {
        Api.Response response = session.get("/api/v1/usage");

        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        JsonNode usage = response.json();
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate first = today.withDayOfMonth(1);
        assertThat(usage.get("tier").asString()).isEqualTo("free");
        assertThat(usage.get("period_start").asString()).isEqualTo(first + "T00:00:00Z");
        assertThat(usage.get("period_end").asString()).isEqualTo(first.plusMonths(1) + "T00:00:00Z");
        assertThat(usage.get("allowance_bytes").asLong()).isEqualTo(GIB);
        assertThat(usage.get("current_bytes").asLong()).isZero();
        assertThat(usage.get("average_bytes").asLong()).isZero();
        assertThat(usage.get("projected_overage_units").asLong()).isZero();
        assertThat(usage.get("projected_overage_cents").asLong()).isZero();
        assertThat(usage.get("projects").toString())
                .isEqualTo("[{\"project_id\":\"" + account.projectId() + "\",\"name\":\"Default project\","
                        + "\"current_bytes\":0}]");
        JsonNode daily = usage.get("daily");
        assertThat(daily.size()).isEqualTo(today.getDayOfMonth());
        assertThat(daily.get(0).toString())
                .isEqualTo("{\"date\":\"" + first + "\",\"average_bytes\":0,\"peak_bytes\":0}");
        assertThat(daily.get(daily.size() - 1).get("date").asString()).isEqualTo(today.toString());
        JsonNode entitlement = usage.get("entitlement");
        assertThat(entitlement.get("plan").get("tier").asString()).isEqualTo("free");
        assertThat(entitlement.get("plan").get("storage_bytes").asLong()).isEqualTo(GIB);
        assertThat(entitlement.get("subscription_status").isNull()).isTrue();
        assertThat(entitlement.get("write_allowed").asBoolean()).isTrue();
        assertThat(entitlement.get("reason").isNull()).isTrue();
    }

    /** The dashboard shows what the server answers: billing's entitlement with verify's write rule applied. */
    @Test
    void shouldAnswerTheEntitlementWithWritesRefusedAtTheFreeAllowance() {
        report(baseUrl(), account.projectId(), GIB, Instant.now().minusSeconds(5));

        JsonNode entitlement = session.get("/api/v1/usage").json().get("entitlement");

        assertThat(entitlement.get("plan").get("tier").asString()).isEqualTo("free");
        assertThat(entitlement.get("write_allowed").asBoolean()).isFalse();
        assertThat(entitlement.get("reason").asString()).isEqualTo("allowance_reached");
    }

    @Test
    void shouldTellWhetherWritesAreAllowedWhyNotAndTheLimitsInForceInBytes() {
        JsonNode fresh = session.get("/api/v1/usage").json();
        assertThat(fresh.at("/entitlement/write_allowed").asBoolean()).isTrue();
        assertThat(fresh.at("/entitlement/reason").isNull()).isTrue();
        assertThat(fresh.get("limits").toString())
                .isEqualTo("{\"alert_thresholds\":[{\"percent\":75,\"bytes\":805306368},"
                        + "{\"percent\":90,\"bytes\":966367642},{\"percent\":100,\"bytes\":1073741824}],"
                        + "\"storage_cap_bytes\":null,\"overage_cap_cents\":null,\"overage_cap_bytes\":null}");

        Api.Response put = session.put(
                "/api/v1/usage/limits", Map.of("alert_thresholds_percent", List.of(33), "storage_cap_bytes", 0));
        assertThat(put.status()).as(put.toString()).isEqualTo(200);
        await().atMost(Duration.ofSeconds(2)).until(() -> "storage_cap"
                .equals(session.get("/api/v1/usage")
                        .json()
                        .at("/entitlement/reason")
                        .asString(null)));
        JsonNode capped = session.get("/api/v1/usage").json();
        assertThat(capped.at("/entitlement/write_allowed").asBoolean()).isFalse();
        assertThat(capped.get("limits").toString())
                .isEqualTo("{\"alert_thresholds\":[{\"percent\":33,\"bytes\":354334802}],"
                        + "\"storage_cap_bytes\":0,\"overage_cap_cents\":null,\"overage_cap_bytes\":null}");
    }

    /**
     * Decision: {@code at} counts to the whole second, so two samples of one project in the same second are taken as
     * simultaneous, and the one reported last wins: a later batch over an earlier one, within a batch the later
     * position; neither the fraction of a second nor the reporter's id decides.
     */
    @Test
    void shouldLetTheSampleReportedLastWinWithinOneSecond() {
        Instant second = Instant.now().minusSeconds(30).truncatedTo(ChronoUnit.SECONDS);
        StorageSamples.reportAll(
                baseUrl(),
                List.of(
                        StorageSamples.sample(
                                "z-" + UUID.randomUUID(), account.projectId(), 100, second.plusMillis(900)),
                        StorageSamples.sample(
                                "a-" + UUID.randomUUID(), account.projectId(), 200, second.plusMillis(100))));
        String key = session.createKey("backend");
        assertCurrentBytes(key, 200);

        report(baseUrl(), account.projectId(), 300, second);
        assertCurrentBytes(key, 300);
    }

    private void assertCurrentBytes(String key, long bytes) {
        JsonNode usage = session.get("/api/v1/usage").json();
        assertThat(usage.get("current_bytes").asLong()).isEqualTo(bytes);
        assertThat(usage.get("projects").get(0).get("current_bytes").asLong()).isEqualTo(bytes);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Api.withKey(baseUrl(), key)
                        .post("/api/v1/api-keys/verify")
                        .json()
                        .get("storage")
                        .get("used_bytes")
                        .asLong())
                .isEqualTo(bytes));
    }

    @Test
    void shouldShowTheCurrentStorageOfEachProjectAndTheirSum() {
        UUID second = session.createProject("Photos");
        Instant now = Instant.now();
        report(baseUrl(), account.projectId(), 300, now.minusSeconds(30));
        report(baseUrl(), second, 200, now.minusSeconds(20));
        report(baseUrl(), second, 700, now.minusSeconds(10));

        JsonNode usage = session.get("/api/v1/usage").json();

        assertThat(usage.get("current_bytes").asLong()).isEqualTo(1000);
        assertThat(usage.get("projects").get(0).get("current_bytes").asLong()).isEqualTo(300);
        assertThat(usage.get("projects").get(1).get("name").asString()).isEqualTo("Photos");
        assertThat(usage.get("projects").get(1).get("current_bytes").asLong()).isEqualTo(700);
        JsonNode today = usage.get("daily").get(usage.get("daily").size() - 1);
        assertThat(today.get("peak_bytes").asLong()).isEqualTo(1000);
        assertThat(today.get("average_bytes").asLong()).isBetween(0L, 1000L);
    }

    @Test
    void shouldListNoBilledPeriodsBeforeAnyRenewal() {
        Api.Response response = session.get("/api/v1/usage/periods");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"periods\":[]}");
    }

    @Test
    void shouldReadTheOrganizationOfAnAdminKey() {
        report(baseUrl(), account.projectId(), 42, Instant.now());
        String admin = session.createKey("admin", "admin");

        Api.Response response = Api.withKey(baseUrl(), admin).get("/api/v1/usage");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("current_bytes").asLong()).isEqualTo(42);
    }

    @Test
    void shouldNotShowAnotherOrganizationsStorage() {
        Api other = api();
        Api.Account theirs = other.signup();
        report(baseUrl(), theirs.projectId(), 12345, Instant.now());

        assertThat(session.get("/api/v1/usage").json().get("current_bytes").asLong())
                .isZero();
    }

    @Test
    void shouldAnswer401WithoutACredential() {
        assertProblem(api().get("/api/v1/usage"), 401, "unauthenticated");
        assertProblem(api().get("/api/v1/usage/periods"), 401, "unauthenticated");
        assertProblem(Api.withKey(baseUrl(), USAGE_TOKEN).get("/api/v1/usage"), 401, "unauthenticated");
    }

    @Test
    void shouldAnswer403ToAKeyWithoutAdmin() {
        String key = session.createKey("writer", "write");

        assertProblem(Api.withKey(baseUrl(), key).get("/api/v1/usage"), 403, "insufficient_permissions");
        assertProblem(Api.withKey(baseUrl(), key).get("/api/v1/usage/periods"), 403, "insufficient_permissions");
    }
}
