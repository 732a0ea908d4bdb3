package com.kvportal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ServiceProcess;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

/**
 * A usage limit changed on one instance reaches verify on every instance within 2 seconds: three
 * instances on one PostgreSQL, this test's own and two separate JVM processes; each in turn takes the PUT.
 */
class UsageLimitsClusterIT extends IntegrationTest {

    private static final Duration WITHIN = Duration.ofSeconds(2);

    private static ServiceProcess second;
    private static ServiceProcess third;

    @Value("${DATABASE_URL}")
    String databaseUrl;

    @AfterAll
    static void stopProcesses() {
        ServiceProcess.closeAll(second, third);
    }

    @Test
    void shouldCarryAChangedLimitMadeOnAnyInstanceToVerifyOnEveryInstanceWithinTwoSeconds() {
        List<ServiceProcess> others = ServiceProcess.startReady(databaseUrl, "limits-second", "limits-third");
        second = others.get(0);
        third = others.get(1);
        Api session = api();
        session.signup();
        String admin = session.createKey("automation", "admin");
        String backend = session.createKey("backend", "read", "write");
        List<String> bases = List.of(baseUrl(), second.baseUrl(), third.baseUrl());
        List<Api> nodes = bases.stream().map(base -> Api.withKey(base, admin)).toList();
        List<Api> verifiers =
                bases.stream().map(base -> Api.withKey(base, backend)).toList();
        for (Api verifier : verifiers) {
            assertThat(reason(verifier)).isNull();
        }

        for (Api changer : nodes) {
            // storage 0 reaches a cap of 0: writes refused; then the cap lifted
            put(changer, 0L);
            long answered = System.nanoTime();
            awaitEverywhere(verifiers, "storage_cap", answered);

            put(changer, null);
            answered = System.nanoTime();
            awaitEverywhere(verifiers, null, answered);
        }
    }

    private static void put(Api node, @Nullable Long storageCap) {
        Map<String, Object> body = new HashMap<>();
        body.put("storage_cap_bytes", storageCap);
        Api.Response response = node.put("/api/v1/usage/limits", body);
        assertThat(response.status()).as(response.toString()).isEqualTo(200);
    }

    private static void awaitEverywhere(List<Api> verifiers, @Nullable String reason, long answered) {
        for (Api verifier : verifiers) {
            Duration left = WITHIN.minusNanos(System.nanoTime() - answered);
            await().atMost(left.isNegative() ? Duration.ZERO : left)
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> Objects.equals(reason(verifier), reason));
            Api.Response verified = verifier.post("/api/v1/api-keys/verify");
            assertThat(verified.json().get("storage").get("write_allowed").asBoolean())
                    .isEqualTo(reason == null);
        }
    }

    private static @Nullable String reason(Api verifier) {
        Api.Response verified = verifier.post("/api/v1/api-keys/verify");
        assertThat(verified.status()).as(verified.toString()).isEqualTo(200);
        return verified.json().get("storage").get("reason").asString(null);
    }
}
