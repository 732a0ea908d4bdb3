package com.kvportal.apikey;

import static com.kvportal.support.Problems.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * Made-up keys that pass the checksum each cost a database lookup: a client address may have five of them an hour
 * here (set low), then its keys that memory cannot answer are refused with 429, while known keys (from memory) go on
 * for everyone. Clients are told apart by {@code X-Forwarded-For}, which counts from loopback.
 */
@TestPropertySource(properties = {"kvportal.limits.key-misses-per-address=5", "kvportal.limits.key-miss-window=1h"})
class VerifyBudgetTest extends IntegrationTest {

    private String known;

    @BeforeEach
    void knownKeyInMemory() {
        await().atMost(Duration.ofSeconds(30)).until(() -> metrics()
                .get("/actuator/prometheus")
                .body()
                .lines()
                .anyMatch(line -> line.startsWith("kvportal_key_cache_lease_trusted") && line.endsWith(" 1.0")));
        known = signedUp().createKey("service", "read");
        assertThat(verify(known, "203.0.113.99").status()).isEqualTo(200);
    }

    @Test
    void shouldAnswer429OnceAnAddressSpentItsMissesWhileKnownKeysGoOn() {
        String flooder = "203.0.113.31";
        String other = "203.0.113.32";
        String firstMiss = ApiKeyFormat.generate().value();
        assertProblem(verify(firstMiss, flooder), 401, "invalid_api_key");
        for (int i = 1; i < 5; i++) {
            assertProblem(verify(ApiKeyFormat.generate().value(), flooder), 401, "invalid_api_key");
        }

        Api.Response refused = verify(ApiKeyFormat.generate().value(), flooder);
        assertProblem(refused, 429, "too_many_requests");
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 3600L);
        // as a credential of a portal call too: no lookup, 429
        assertProblem(portalCall(ApiKeyFormat.generate().value(), flooder), 429, "too_many_requests");

        // what memory answers costs nothing: a key it knows, a miss it remembers
        assertThat(verify(known, flooder).status()).isEqualTo(200);
        assertProblem(verify(firstMiss, flooder), 401, "invalid_api_key");
        // another address has its own budget, and its known keys never wait
        assertThat(verify(known, other).status()).isEqualTo(200);
        assertProblem(verify(ApiKeyFormat.generate().value(), other), 401, "invalid_api_key");
    }

    @Test
    void shouldNotSpendTheBudgetOnKeysThatExist() {
        String client = "203.0.113.40";
        Api session = signedUp();
        for (int i = 0; i < 8; i++) {
            // each a new key, never looked up before: a database lookup that finds it gives its token back
            assertThat(verify(session.createKey("fresh-" + i), client).status()).isEqualTo(200);
        }
        for (int i = 0; i < 5; i++) {
            assertProblem(verify(ApiKeyFormat.generate().value(), client), 401, "invalid_api_key");
        }
        assertProblem(verify(ApiKeyFormat.generate().value(), client), 429, "too_many_requests");
    }

    private Api.Response verify(String key, String client) {
        return send("POST", "/api/v1/api-keys/verify", key, client);
    }

    private Api.Response portalCall(String key, String client) {
        return send("GET", "/api/v1/api-keys", key, client);
    }

    private Api.Response send(String method, String path, String key, String client) {
        return api().sendRaw(
                        method,
                        path,
                        HttpRequest.BodyPublishers.noBody(),
                        Map.of("Authorization", "Bearer " + key, "X-Forwarded-For", client));
    }
}
