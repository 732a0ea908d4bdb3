package com.kvportal.apikey.limits;

import static com.kvportal.support.Problems.assertFieldErrors;
import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Rate limits and credits of a key: their fields' bounds, and every outcome of verify with its state. */
class KeyLimitsTest extends IntegrationTest {

    private static final long DAY = 86_400_000;

    private Api session;

    private record Key(String raw, String id) {}

    private Key create(Map<String, Object> fields) {
        Map<String, Object> body = new HashMap<>(fields);
        body.put("name", "limited");
        Api.Response created = session.post("/api/v1/api-keys", body);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return new Key(
                created.json().get("api_key").asString(),
                created.json().get("key").get("id").asString());
    }

    private Api.Response verify(Key key, Integer cost) {
        return Api.withKey(baseUrl(), key.raw()).post("/api/v1/api-keys/verify", Map.of("cost", cost));
    }

    private Api.Response verify(Key key) {
        return Api.withKey(baseUrl(), key.raw()).post("/api/v1/api-keys/verify");
    }

    private JsonNode listed(Key key) {
        for (JsonNode item : session.keys()) {
            if (item.get("id").asString().equals(key.id())) {
                return item;
            }
        }
        throw new AssertionError("not listed: " + key);
    }

    private static Map<String, Object> perDay(String name, long limit) {
        return Map.of("name", name, "limit", limit, "duration_ms", DAY);
    }

    private static long secondsToMidnight() {
        Instant midnight =
                LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return Duration.between(Instant.now(), midnight).toSeconds();
    }

    private Api signedUpSession() {
        session = signedUp();
        return session;
    }

    /** Asks to create a key with one limit field; the refusals below must create nothing. */
    private Api.Response attemptWith(String field, Object value) {
        return session.post("/api/v1/api-keys", Map.of("name", "k", field, value));
    }

    @Test
    void shouldRefuseRateLimitsOutOfBoundsNamingTheFieldAndCreateNothing() {
        signedUpSession();
        List<Map<String, Object>> six =
                List.of(perDay("a", 1), perDay("b", 1), perDay("c", 1), perDay("d", 1), perDay("e", 1), perDay("f", 1));
        assertFieldErrors(attemptWith("ratelimits", six), "ratelimits");
        assertFieldErrors(attemptWith("ratelimits", List.of(perDay("a", 1), perDay("a", 2))), "ratelimits");
        assertFieldErrors(
                attemptWith("ratelimits", List.of(Map.of("name", "Per Minute", "limit", 0, "duration_ms", 999))),
                "ratelimits[0].name",
                "ratelimits[0].limit",
                "ratelimits[0].duration_ms");
        assertFieldErrors(
                attemptWith(
                        "ratelimits",
                        List.of(Map.of("name", "x".repeat(33), "limit", 1_000_001, "duration_ms", DAY + 1))),
                "ratelimits[0].name",
                "ratelimits[0].limit",
                "ratelimits[0].duration_ms");
        assertThat(session.keys()).isEmpty();
    }

    @Test
    void shouldRefuseCreditsOutOfBoundsNamingTheField() {
        signedUpSession();
        assertFieldErrors(attemptWith("credits", Map.of("remaining", -1)), "credits.remaining");
        assertFieldErrors(attemptWith("credits", Map.of("remaining", 1_000_000_001)), "credits.remaining");
        assertFieldErrors(
                attemptWith(
                        "credits",
                        Map.of("remaining", 5, "refill", Map.of("amount", 0, "interval", "month", "day_of_month", 32))),
                "credits.refill.amount",
                "credits.refill.day_of_month");
        assertFieldErrors(
                attemptWith(
                        "credits",
                        Map.of("remaining", 5, "refill", Map.of("amount", 5, "interval", "day", "day_of_month", 3))),
                "credits.refill.day_of_month");
        assertThat(session.keys()).isEmpty();
    }

    @Test
    void shouldRefuseACostOutOfBoundsWithoutSpendingAnything() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("daily", 5)), "credits", Map.of("remaining", 5)));
        assertFieldErrors(verify(key, 1001), "cost");
        assertFieldErrors(verify(key, -1), "cost");
        JsonNode ok = verify(key, 1).json();
        assertThat(ok.get("ratelimits").get(0).get("remaining").asLong()).isEqualTo(4);
        assertThat(ok.get("credits").get("remaining").asLong()).isEqualTo(4);
    }

    @Test
    void shouldAcceptUpToTheLimitThenAnswer429RateLimitedWithRetryAfterAndTheState() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("daily", 3))));
        for (int remaining = 2; remaining >= 0; remaining--) {
            Api.Response ok = verify(key);
            assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
            JsonNode limit = ok.json().get("ratelimits").get(0);
            assertThat(limit.get("name").asString()).isEqualTo("daily");
            assertThat(limit.get("limit").asLong()).isEqualTo(3);
            assertThat(limit.get("remaining").asLong()).isEqualTo(remaining);
            assertThat(ok.json().get("credits").isNull()).isTrue();
        }
        Api.Response refused = verify(key);
        JsonNode problem = assertProblem(refused, 429, "rate_limited");
        assertThat(problem.get("detail").asString()).contains("daily").contains("3 per day");
        long retryAfter = Long.parseLong(refused.header("Retry-After"));
        assertThat(retryAfter).isBetween(secondsToMidnight() - 5, secondsToMidnight() + 5);
        assertThat(problem.get("ratelimits").get(0).get("remaining").asLong()).isZero();
        assertThat(Instant.parse(
                        problem.get("ratelimits").get(0).get("reset_at").asString()))
                .isEqualTo(
                        LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    @Test
    void shouldRefuseACostTheWindowCannotHoldAndTakeNothing() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("daily", 3))));
        assertThat(verify(key, 2).status()).isEqualTo(200);
        assertProblem(verify(key, 2), 429, "rate_limited");
        // the refused verify took nothing: 1 is left
        Api.Response last = verify(key, 1);
        assertThat(last.status()).as(last.toString()).isEqualTo(200);
        assertThat(last.json().get("ratelimits").get(0).get("remaining").asLong())
                .isZero();
    }

    @Test
    void shouldTakeNothingFromOtherLimitsWhenOneRefuses() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("wide", 100), perDay("narrow", 1))));
        assertThat(verify(key).status()).isEqualTo(200);
        JsonNode problem = assertProblem(verify(key), 429, "rate_limited");
        assertThat(problem.get("ratelimits").get(0).get("remaining").asLong()).isEqualTo(99);
        assertThat(problem.get("detail").asString()).contains("narrow");
    }

    @Test
    void shouldSpendCreditsThenAnswer429CreditsExhaustedWithoutRetryAfterWhenNoRefill() {
        signedUpSession();
        Key key = create(Map.of("credits", Map.of("remaining", 3)));
        assertThat(verify(key, 2).json().get("credits").get("remaining").asLong())
                .isEqualTo(1);
        Api.Response tooDear = verify(key, 2);
        JsonNode problem = assertProblem(tooDear, 429, "credits_exhausted");
        assertThat(tooDear.header("Retry-After")).isNull();
        assertThat(problem.get("credits").get("remaining").asLong()).isEqualTo(1);
        assertThat(problem.get("credits").get("next_refill_at").isNull()).isTrue();
        assertThat(problem.get("detail").asString()).contains("top its credits up");
        Api.Response last = verify(key, 1);
        assertThat(last.status()).as(last.toString()).isEqualTo(200);
        assertThat(last.json().get("credits").get("remaining").asLong()).isZero();
        assertProblem(verify(key, 1), 429, "credits_exhausted");
        // a cost of 0 takes nothing and is not refused
        assertThat(verify(key, 0).status()).isEqualTo(200);
    }

    @Test
    void shouldAnswerCreditsExhaustedWithRetryAfterToTheNextRefill() {
        signedUpSession();
        Key key = create(Map.of("credits", Map.of("remaining", 0, "refill", Map.of("amount", 10, "interval", "day"))));
        Api.Response refused = verify(key);
        JsonNode problem = assertProblem(refused, 429, "credits_exhausted");
        assertThat(Long.parseLong(refused.header("Retry-After")))
                .isBetween(secondsToMidnight() - 5, secondsToMidnight() + 5);
        assertThat(Instant.parse(problem.get("credits").get("next_refill_at").asString()))
                .isEqualTo(
                        LocalDate.now(ZoneOffset.UTC).plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC));
    }

    @Test
    void shouldRefuseByCreditsWithoutTakingFromTheRateLimits() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("daily", 10)), "credits", Map.of("remaining", 1)));
        assertThat(verify(key).status()).isEqualTo(200);
        JsonNode problem = assertProblem(verify(key), 429, "credits_exhausted");
        assertThat(problem.get("ratelimits").get(0).get("remaining").asLong()).isEqualTo(9);
        assertThat(verify(key, 0)
                        .json()
                        .get("ratelimits")
                        .get(0)
                        .get("remaining")
                        .asLong())
                .isEqualTo(9);
    }

    @Test
    void shouldTopUpAndRemoveCreditsWithAnUpdate() {
        signedUpSession();
        Key key = create(Map.of("credits", Map.of("remaining", 1)));
        assertThat(verify(key).status()).isEqualTo(200);
        assertProblem(verify(key), 429, "credits_exhausted");

        Api.Response topUp = session.patch("/api/v1/api-keys/" + key.id(), Map.of("credits", Map.of("remaining", 5)));
        assertThat(topUp.status()).as(topUp.toString()).isEqualTo(200);
        assertThat(topUp.json().get("credits").get("remaining").asLong()).isEqualTo(5);
        assertThat(verify(key).json().get("credits").get("remaining").asLong()).isEqualTo(4);

        Map<String, Object> unlimited = new HashMap<>();
        unlimited.put("credits", null);
        Api.Response removed = session.patch("/api/v1/api-keys/" + key.id(), unlimited);
        assertThat(removed.status()).as(removed.toString()).isEqualTo(200);
        assertThat(removed.json().get("credits").isNull()).isTrue();
        assertThat(verify(key).json().get("credits").isNull()).isTrue();

        // a name change leaves the credits alone
        session.patch("/api/v1/api-keys/" + key.id(), Map.of("credits", Map.of("remaining", 7)));
        session.patch("/api/v1/api-keys/" + key.id(), Map.of("name", "renamed"));
        assertThat(listed(key).get("credits").get("remaining").asLong()).isEqualTo(7);
    }

    @Test
    void shouldReplaceRateLimitsWithAnUpdateAndRefuseBadOnesChangingNothing() {
        signedUpSession();
        Key key = create(Map.of("ratelimits", List.of(perDay("daily", 1))));
        assertFieldErrors(
                session.patch(
                        "/api/v1/api-keys/" + key.id(),
                        Map.of("ratelimits", List.of(Map.of("name", "m", "limit", 0, "duration_ms", 60_000)))),
                "ratelimits[0].limit");
        assertThat(listed(key).get("ratelimits").get(0).get("name").asString()).isEqualTo("daily");

        session.patch(
                "/api/v1/api-keys/" + key.id(),
                Map.of("ratelimits", List.of(Map.of("name", "minute", "limit", 100, "duration_ms", 60_000))));
        JsonNode limit = listed(key).get("ratelimits").get(0);
        assertThat(limit.get("name").asString()).isEqualTo("minute");
        assertThat(limit.get("limit").asLong()).isEqualTo(100);
        assertThat(limit.get("duration_ms").asLong()).isEqualTo(60_000);
        assertThat(verify(key).json().get("ratelimits").get(0).get("name").asString())
                .isEqualTo("minute");

        session.patch("/api/v1/api-keys/" + key.id(), Map.of("ratelimits", List.of()));
        assertThat(verify(key).json().get("ratelimits")).isEmpty();
    }

    @Test
    void shouldGiveUnusedCreditsBackToTheKeyWithinTwoSeconds() {
        signedUpSession();
        Key key = create(Map.of("credits", Map.of("remaining", 1000)));
        assertThat(verify(key).status()).isEqualTo(200);
        // the instance set a chunk aside: the key shows less until it is given back
        await().atMost(Duration.ofSeconds(3))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> listed(key).get("credits").get("remaining").asLong() == 999);
    }

    @Test
    void shouldCopyLimitsAndMoveCreditsToARolledKey() {
        signedUpSession();
        Key key = create(Map.of(
                "ratelimits",
                List.of(perDay("daily", 50)),
                "credits",
                Map.of("remaining", 40, "refill", Map.of("amount", 40, "interval", "month", "day_of_month", 31))));
        Api.Response rolled = session.post("/api/v1/api-keys/" + key.id() + "/roll", Map.of("grace_seconds", 60));
        assertThat(rolled.status()).as(rolled.toString()).isEqualTo(201);
        JsonNode item = rolled.json().get("key");
        assertThat(item.get("ratelimits").get(0).get("limit").asLong()).isEqualTo(50);
        assertThat(item.get("credits").get("remaining").asLong()).isEqualTo(40);
        assertThat(item.get("credits").get("refill").get("day_of_month").asInt())
                .isEqualTo(31);
        // the old key, in its grace, has no credits left to spend: one budget is never spent twice
        assertProblem(verify(key), 429, "credits_exhausted");
        Key next =
                new Key(rolled.json().get("api_key").asString(), item.get("id").asString());
        assertThat(verify(next).json().get("credits").get("remaining").asLong()).isEqualTo(39);
    }

    @Test
    void shouldNoticeLowAndExhaustedCreditsOncePerBudgetInTheAuditLogAndByMail() {
        session = api();
        Api.Account account = session.signup();
        Key key = create(Map.of("credits", Map.of("remaining", 20)));
        for (int i = 0; i < 20; i++) {
            assertThat(verify(key).status()).isEqualTo(200);
        }
        assertProblem(verify(key), 429, "credits_exhausted");
        assertProblem(verify(key), 429, "credits_exhausted");

        List<String> actions = new java.util.ArrayList<>();
        session.get("/api/v1/audit-events?limit=200").json().get("events").forEach(event -> {
            if (event.get("action").asString().startsWith("api_key.credits_")) {
                actions.add(event.get("action").asString());
            }
        });
        assertThat(actions).containsExactly("api_key.credits_exhausted", "api_key.credits_low");
        com.kvportal.support.Inbox inbox = new com.kvportal.support.Inbox(baseUrl(), account.email());
        assertThat(inbox.awaitMessage("API key limited: credits exhausted")).isNotNull();
        assertThat(inbox.count("API key limited: credits low")).isEqualTo(1);
        assertThat(inbox.count("API key limited: credits exhausted")).isEqualTo(1);

        // a top-up is a new budget: the notices are due again
        session.patch("/api/v1/api-keys/" + key.id(), Map.of("credits", Map.of("remaining", 1)));
        assertThat(verify(key).status()).isEqualTo(200);
        assertProblem(verify(key), 429, "credits_exhausted");
        await().atMost(Duration.ofSeconds(5)).until(() -> inbox.count("API key limited: credits exhausted") == 2);
    }
}
