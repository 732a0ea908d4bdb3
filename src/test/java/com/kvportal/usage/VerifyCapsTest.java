package com.kvportal.usage;

import static com.kvportal.support.StorageSamples.report;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The usage limits enforced at verify: {@code storage.reason} names the first refusal that applies
 * (storage_cap, overage_cap, allowance_reached), and a changed limit reaches verify within 2 seconds.
 */
class VerifyCapsTest extends SignedInTest {

    static final long GIB = 1L << 30;
    static final Duration TWO_SECONDS = Duration.ofSeconds(2);

    JsonNode storage(String key) {
        Api.Response response = Api.withKey(baseUrl(), key).post("/api/v1/api-keys/verify");
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json().get("storage");
    }

    void putLimits(@Nullable Long storageCap, @Nullable Long overageCap) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("storage_cap_bytes", storageCap);
        body.put("overage_cap_cents", overageCap);
        Api.Response response = session.put("/api/v1/usage/limits", body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    /** Waits at most 2 s (a limit's change) until verify gives the reason; then write_allowed agrees with it. */
    void awaitReason(String key, @Nullable String reason) {
        await().atMost(TWO_SECONDS)
                .pollInterval(Duration.ofMillis(50))
                .until(() -> reason == null
                        ? storage(key).get("reason").isNull()
                        : reason.equals(storage(key).get("reason").asString(null)));
        JsonNode storage = storage(key);
        assertThat(storage.get("write_allowed").asBoolean())
                .as(storage.toString())
                .isEqualTo(reason == null);
    }

    /** Waits for samples (their lag is at most 5 s) until verify sees the storage. */
    void awaitUsed(String key, long bytes) {
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> storage(key).get("used_bytes").asLong() == bytes);
    }

    @Test
    void shouldRefuseWritesAtTheStorageCapWithinTwoSecondsOfSettingItAndAllowThemWhenItIsLifted() {
        String key = session.createKey("backend");
        report(baseUrl(), account.projectId(), 500, Instant.now());
        awaitUsed(key, 500);
        awaitReason(key, null);

        putLimits(500L, null);
        awaitReason(key, "storage_cap");

        putLimits(501L, null);
        awaitReason(key, null);

        putLimits(0L, null);
        awaitReason(key, "storage_cap");

        putLimits(null, null);
        awaitReason(key, null);
    }

    @Test
    void shouldNameTheStorageCapBeforeTheFreeAllowanceAndTheAllowanceWithoutACap() {
        String key = session.createKey("backend");
        report(baseUrl(), account.projectId(), 2 * GIB, Instant.now());
        awaitUsed(key, 2 * GIB);
        awaitReason(key, "allowance_reached");

        putLimits(GIB / 2, null);
        awaitReason(key, "storage_cap");
    }

    @Test
    void shouldRefuseWritesOnProWhenTheProjectedOverageReachesTheCapAndNameCapsInOrder() {
        String key = session.createKey("backend");
        // 150 GiB from before the period holds for all of it: 50 GiB above 100 GiB, 5 units of 200 cents
        report(baseUrl(), account.projectId(), 150 * GIB, Instant.now().minusSeconds(60));
        Subscribe.pro(session, api());
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> storage(key).get("allowance_bytes").asLong() == 100 * GIB);
        awaitUsed(key, 150 * GIB);
        awaitReason(key, null);
        assertThat(session.get("/api/v1/usage")
                        .json()
                        .get("projected_overage_cents")
                        .asLong())
                .isEqualTo(1000);

        putLimits(null, 1001L);
        awaitReason(key, null);

        putLimits(null, 1000L);
        awaitReason(key, "overage_cap");

        // the customer's own limits first: the storage cap before the overage cap
        putLimits(120 * GIB, 1000L);
        awaitReason(key, "storage_cap");

        putLimits(null, null);
        awaitReason(key, null);
    }

    @Test
    void shouldRefuseWritesAtTheAllowanceUnderAnOverageCapOfZeroAndAllowThemBelowIt() {
        String key = session.createKey("backend");
        Subscribe.pro(session, api());
        await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> storage(key).get("allowance_bytes").asLong() == 100 * GIB);
        putLimits(null, 0L);
        report(baseUrl(), account.projectId(), 100 * GIB - 1, Instant.now());
        awaitUsed(key, 100 * GIB - 1);
        awaitReason(key, null);

        report(baseUrl(), account.projectId(), 100 * GIB, Instant.now());
        awaitUsed(key, 100 * GIB);
        awaitReason(key, "overage_cap");
    }
}
