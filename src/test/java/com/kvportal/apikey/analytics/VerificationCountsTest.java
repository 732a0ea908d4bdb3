package com.kvportal.apikey.analytics;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Every verify of a known key is counted once under its outcome, and read back exactly at every granularity, per key,
 * per organization or project, and among the busiest keys. The tests flush rather than wait the 10 s interval.
 */
class VerificationCountsTest extends SignedInTest {

    private static final String[] OUTCOMES = {
        "valid", "revoked", "expired", "disabled", "ip_not_allowed", "rate_limited", "credits_exhausted"
    };

    @Autowired
    VerificationFlush flush;

    @Test
    void shouldCountEachOutcomeOfAKnownKeyAndReadTheExactCountsAtEveryGranularity() {
        String valid = session.createKey("busy");
        String revoked = session.createKey("revoked");
        String expired = session.createKey("expired");
        String validId = session.keyId("busy");
        String revokedId = session.keyId("revoked");
        String expiredId = session.keyId("expired");
        assertThat(session.delete("/api/v1/api-keys/" + revokedId).status()).isEqualTo(204);
        jdbc.sql("update api_keys set expires_at = now() - interval '1 second' where id = ?::uuid")
                .param(expiredId)
                .update();

        verify(valid, 200, 3);
        verify(revoked, 401, 2);
        verify(expired, 401, 1);
        verify(altered(session.createKey("unused")), 401, 1); // malformed or unknown: not counted
        flush.flush();

        for (String granularity : new String[] {"minute", "hour", "day"}) {
            assertThat(totals(keyRead(validId, granularity))).as(granularity).isEqualTo(counts(3, 0, 0));
            assertThat(totals(keyRead(revokedId, granularity))).as(granularity).isEqualTo(counts(0, 2, 0));
            assertThat(totals(keyRead(expiredId, granularity))).as(granularity).isEqualTo(counts(0, 0, 1));
            assertThat(totals(read("/api/v1/verifications?granularity=" + granularity)))
                    .as(granularity)
                    .isEqualTo(counts(3, 2, 1));
            assertThat(totals(read(
                            "/api/v1/verifications?granularity=" + granularity + "&project_id=" + account.projectId())))
                    .isEqualTo(counts(3, 2, 1));
        }

        // a second flush adds to the same buckets
        verify(valid, 200, 2);
        flush.flush();
        assertThat(totals(keyRead(validId, "day"))).isEqualTo(counts(5, 0, 0));
        assertThat(totals(keyRead(validId, "minute"))).isEqualTo(counts(5, 0, 0));

        JsonNode top = read("/api/v1/verifications/top-keys").get("keys");
        assertThat(top).hasSize(3);
        assertThat(top.get(0).get("id").asString()).isEqualTo(validId);
        assertThat(top.get(0).get("name").asString()).isEqualTo("busy");
        assertThat(top.get(0).get("project_id").asString())
                .isEqualTo(account.projectId().toString());
        assertThat(top.get(0).get("valid").asLong()).isEqualTo(5);
        assertThat(top.get(0).get("refused").asLong()).isZero();
        assertThat(top.get(1).get("id").asString()).isEqualTo(revokedId);
        assertThat(top.get(1).get("refused").asLong()).isEqualTo(2);
        assertThat(top.get(2).get("id").asString()).isEqualTo(expiredId);
        assertThat(read("/api/v1/verifications/top-keys?limit=1").get("keys")).hasSize(1);
    }

    @Test
    void shouldCountTheRefusalsOfASwitchedOffKeyAnAddressOutsideARateLimitAndSpentCredits() {
        String off = shapedKey("off", Map.of("enabled", false));
        String fenced = shapedKey("fenced", Map.of("allowed_ips", java.util.List.of("203.0.113.0/24")));
        String limited = shapedKey(
                "limited",
                Map.of("ratelimits", java.util.List.of(Map.of("name", "day", "limit", 2, "duration_ms", 86_400_000))));
        String metered = shapedKey("metered", Map.of("credits", Map.of("remaining", 1)));

        verify(off, 401, 2);
        verifyFrom(fenced, "198.51.100.7", 403, 3);
        verifyFrom(fenced, "203.0.113.7", 200, 1);
        verify(limited, 200, 2);
        verify(limited, 429, 2);
        verify(metered, 200, 1);
        verify(metered, 429, 3);
        flush.flush();

        for (String granularity : new String[] {"minute", "hour", "day"}) {
            assertThat(totals(keyRead(session.keyId("off"), granularity))).isEqualTo(only("disabled", 2));
            Map<String, Long> fencedCounts = only("ip_not_allowed", 3);
            fencedCounts.put("valid", 1L);
            assertThat(totals(keyRead(session.keyId("fenced"), granularity))).isEqualTo(fencedCounts);
            Map<String, Long> limitedCounts = only("rate_limited", 2);
            limitedCounts.put("valid", 2L);
            assertThat(totals(keyRead(session.keyId("limited"), granularity))).isEqualTo(limitedCounts);
            Map<String, Long> meteredCounts = only("credits_exhausted", 3);
            meteredCounts.put("valid", 1L);
            assertThat(totals(keyRead(session.keyId("metered"), granularity))).isEqualTo(meteredCounts);
        }
    }

    @Test
    void shouldAnswerBucketsAlignedToTheGranularityOldestFirstWithinTheRange() {
        String id = verifiedKeyId("aligned", 1);

        JsonNode minute = read("/api/v1/api-keys/" + id + "/verifications?granularity=minute");
        assertThat(minute.get("granularity").asString()).isEqualTo("minute");
        Instant start = Instant.parse(minute.get("buckets").get(0).get("start").asString());
        assertThat(start).isEqualTo(start.truncatedTo(ChronoUnit.MINUTES));
        JsonNode day = read("/api/v1/api-keys/" + id + "/verifications?granularity=day");
        assertThat(Instant.parse(day.get("buckets").get(0).get("start").asString()))
                .isEqualTo(Instant.now().truncatedTo(ChronoUnit.DAYS));
        JsonNode hour = read("/api/v1/api-keys/" + id + "/verifications?granularity=hour");
        assertThat(Instant.parse(hour.get("buckets").get(0).get("start").asString()))
                .isEqualTo(start.truncatedTo(ChronoUnit.HOURS));

        // a range that ends before the bucket, or starts after it, holds none
        Instant before = start.minus(1, ChronoUnit.HOURS);
        assertThat(read("/api/v1/api-keys/" + id + "/verifications?granularity=minute&start=" + before + "&end="
                                + start)
                        .get("buckets"))
                .isEmpty();
        assertThat(read("/api/v1/api-keys/" + id + "/verifications?granularity=minute&start="
                                + start.plus(1, ChronoUnit.MINUTES) + "&end=" + start.plus(2, ChronoUnit.MINUTES))
                        .get("buckets"))
                .isEmpty();
    }

    @Test
    void shouldRefuseARangeOutsideItsGranularitysReachOrBackwardsWithValidationFailed() {
        String id = session.newKeyId("ranged");
        Instant now = Instant.now();
        String path = "/api/v1/api-keys/" + id + "/verifications";
        assertInvalid(path + "?granularity=week", "granularity");
        assertInvalid(path + "?granularity=minute&start=" + now.minus(25, ChronoUnit.HOURS), "start");
        assertInvalid(path + "?granularity=hour&start=" + now.minus(31, ChronoUnit.DAYS), "start");
        assertInvalid(path + "?granularity=day&start=" + now.minus(402, ChronoUnit.DAYS), "start");
        assertInvalid(path + "?granularity=hour&start=" + now + "&end=" + now.minusSeconds(1), "end");
        assertInvalid(path + "?start=yesterday", "start");
        assertInvalid("/api/v1/verifications?granularity=minute&start=" + now.minus(2, ChronoUnit.DAYS), "start");
        assertInvalid("/api/v1/verifications/top-keys?start=" + now.minus(402, ChronoUnit.DAYS), "start");
        assertInvalid("/api/v1/verifications/top-keys?limit=0", "limit");
        assertInvalid("/api/v1/verifications/top-keys?limit=101", "limit");
        assertInvalid("/api/v1/verifications/top-keys?limit=ten", "limit");

        // each reach itself is fine
        assertThat(session.get(path + "?granularity=minute&start=" + now.minus(24, ChronoUnit.HOURS))
                        .status())
                .isEqualTo(200);
        assertThat(session.get(path + "?granularity=hour&start=" + now.minus(30, ChronoUnit.DAYS))
                        .status())
                .isEqualTo(200);
        assertThat(session.get(path + "?granularity=day&start=" + now.minus(400, ChronoUnit.DAYS))
                        .status())
                .isEqualTo(200);
        assertThat(session.get("/api/v1/verifications/top-keys?limit=100&start=" + now.minus(400, ChronoUnit.DAYS))
                        .status())
                .isEqualTo(200);
    }

    @Test
    void shouldLetEveryMemberReadAndAnswer404ForAnotherOrganizationsKey() {
        String id = verifiedKeyId("shared", 4);
        for (String role : new String[] {"viewer", "billing"}) {
            Api member = join(role).api();
            Api.Response key = member.get("/api/v1/api-keys/" + id + "/verifications?granularity=hour");
            assertThat(key.status()).as(role + " " + key).isEqualTo(200);
            assertThat(totals(key.json())).isEqualTo(counts(4, 0, 0));
            assertThat(member.get("/api/v1/verifications").status()).isEqualTo(200);
            assertThat(member.get("/api/v1/verifications/top-keys").status()).isEqualTo(200);
        }

        Api other = signedUp();
        Api.Response key = other.get("/api/v1/api-keys/" + id + "/verifications");
        assertThat(key.status()).isEqualTo(404);
        assertThat(key.code()).isEqualTo("api_key_not_found");
        Api.Response unknown = other.get("/api/v1/api-keys/" + UUID.randomUUID() + "/verifications");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("api_key_not_found");
        // another organization's project filters the caller's own keys: none of them is in it
        other.createKey("own");
        Api.Response project = other.get("/api/v1/verifications?project_id=" + account.projectId());
        assertThat(project.status()).isEqualTo(200);
        assertThat(project.json().get("buckets")).isEmpty();
        assertThat(other.get("/api/v1/verifications").json().get("buckets")).isEmpty();
        assertThat(other.get("/api/v1/verifications/top-keys").json().get("keys"))
                .isEmpty();
    }

    /** The key with its first random character changed (to another one, always): its checksum no longer fits. */
    private static String altered(String raw) {
        char first = raw.charAt("kv_".length());
        return "kv_" + (first == '0' ? '1' : '0') + raw.substring("kv_".length() + 1);
    }

    /** Verifies the key this many times without a body, each answered with this status. */
    private void verify(String raw, int status, int times) {
        verifyFrom(raw, null, status, times);
    }

    /** The same, for a client at {@code clientIp} (none: no body). */
    private void verifyFrom(String raw, @Nullable String clientIp, int status, int times) {
        Api key = Api.withKey(baseUrl(), raw);
        for (int i = 0; i < times; i++) {
            Api.Response response = clientIp == null
                    ? key.post("/api/v1/api-keys/verify")
                    : key.post("/api/v1/api-keys/verify", Map.of("client_ip", clientIp));
            assertThat(response.status()).isEqualTo(status);
        }
    }

    /** A new key verified this many times, each valid, and the counts flushed; answers its id. */
    private String verifiedKeyId(String name, int times) {
        verify(session.createKey(name), 200, times);
        flush.flush();
        return session.keyId(name);
    }

    /** Creates a key, then shapes it with this update; answers the raw key. */
    private String shapedKey(String name, Map<String, Object> update) {
        String raw = session.createKey(name);
        Api.Response response = session.patch("/api/v1/api-keys/" + session.keyId(name), update);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return raw;
    }

    private static Map<String, Long> only(String outcome, long count) {
        Map<String, Long> counts = counts(0, 0, 0);
        counts.put(outcome, count);
        return counts;
    }

    private JsonNode keyRead(String id, String granularity) {
        return read("/api/v1/api-keys/" + id + "/verifications?granularity=" + granularity);
    }

    private JsonNode read(String path) {
        Api.Response response = session.get(path);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
        return response.json();
    }

    private void assertInvalid(String path, String field) {
        Api.Response response = session.get(path);
        assertThat(response.status()).as(path + " " + response).isEqualTo(400);
        assertThat(response.code()).isEqualTo("validation_failed");
        assertThat(response.json().get("errors").get(0).get("field").asString()).isEqualTo(field);
        assertThat(response.json().get("detail").asString()).isNotBlank();
    }

    /** Each outcome summed over the buckets. */
    static Map<String, Long> totals(JsonNode read) {
        Map<String, Long> totals = new java.util.LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            long sum = 0;
            for (JsonNode bucket : read.get("buckets")) {
                sum += bucket.get(outcome).asLong();
            }
            totals.put(outcome, sum);
        }
        return totals;
    }

    static Map<String, Long> counts(long valid, long revoked, long expired) {
        Map<String, Long> counts = new java.util.LinkedHashMap<>();
        for (String outcome : OUTCOMES) {
            counts.put(outcome, 0L);
        }
        counts.put("valid", valid);
        counts.put("revoked", revoked);
        counts.put("expired", expired);
        return counts;
    }
}
