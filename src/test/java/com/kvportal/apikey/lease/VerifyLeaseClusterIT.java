package com.kvportal.apikey.lease;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.support.ServiceProcess;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;

/**
 * A holder's lease lives on one instance and the change on another: two instances on one PostgreSQL (this test's own
 * and a separate JVM). The holder takes, follows and acknowledges its lease on the second instance; a revoke made on
 * the first reaches its stream there, waits for its acknowledgement, and answers soon after it (the acknowledgement
 * wakes the waiting change on the other instance), not at the lease's end.
 */
class VerifyLeaseClusterIT extends IntegrationTest {

    private static ServiceProcess second;

    @Value("${DATABASE_URL}")
    String databaseUrl;

    @AfterAll
    static void stopTheSecondInstance() {
        ServiceProcess.closeAll(second);
        second = null;
    }

    @Test
    void shouldWaitOnOneInstanceForAnAcknowledgementMadeOnAnother() throws Exception {
        second = ServiceProcess.launch("lease-second", databaseUrl, Map.of("USAGE_API_TOKEN", USAGE_TOKEN));
        second.awaitReady();
        Api backendOnSecond = Api.withKey(second.baseUrl(), USAGE_TOKEN);
        Api customer = signedUp();
        String keyId = customer.newKeyId("held elsewhere");

        // the first call to an instance reads its OpenAPI document (to check answers against it): not within a lease
        assertThat(backendOnSecond
                        .post("/api/v1/verify-leases/" + UUID.randomUUID() + "/renew")
                        .code())
                .isEqualTo("lease_expired");
        Api.Response taken = backendOnSecond.post("/api/v1/verify-leases");
        assertThat(taken.status()).isEqualTo(201);
        String lease = "/api/v1/verify-leases/" + taken.json().get("lease_id").asString();
        try (EventStream stream = EventStream.open(
                second.baseUrl(), taken.json().get("events_url").asString(), USAGE_TOKEN)) {
            assertThat(stream.status()).isEqualTo(200);
            assertThat(backendOnSecond.post(lease + "/renew").status()).isEqualTo(200);

            CompletableFuture<Api.Response> revoke =
                    CompletableFuture.supplyAsync(() -> customer.delete("/api/v1/api-keys/" + keyId));
            EventStream.Event event = next(stream, keyId);
            Thread.sleep(300);
            assertThat(revoke)
                    .as("the revoke on the first instance waits for the holder")
                    .isNotDone();

            long acked = System.nanoTime();
            assertThat(backendOnSecond
                            .post(lease + "/ack", Map.of("seq", Long.parseLong(event.id())))
                            .status())
                    .isEqualTo(204);

            assertThat(revoke.get(6, TimeUnit.SECONDS).status()).isEqualTo(204);
            assertThat(Duration.ofNanos(System.nanoTime() - acked))
                    .as("woken by the acknowledgement made on the other instance, not by the lease's end")
                    .isLessThan(Duration.ofMillis(1500));
        } finally {
            jdbc.sql("delete from key_cache_leases where instance_id = ?")
                    .param(UUID.fromString(lease.substring(lease.lastIndexOf('/') + 1)))
                    .update();
        }
    }

    private static EventStream.Event next(EventStream stream, String keyId) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            EventStream.Event event = stream.next(Duration.ofMillis(200));
            if (event != null && event.data() != null && event.data().contains("\"key_id\":\"" + keyId + "\"")) {
                return event;
            }
        }
        throw new AssertionError("no key.changed of " + keyId + " on the second instance's stream");
    }
}
