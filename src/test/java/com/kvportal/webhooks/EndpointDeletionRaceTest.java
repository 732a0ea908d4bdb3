package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.kvportal.support.Api;
import com.kvportal.support.SignedInTest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Deleting an endpoint while an attempt's outcome is being recorded. The outcome used to lock its delivery, then
 * the endpoint; the deletion locks the endpoint, then (cascading) its deliveries: the two deadlocked, and the
 * DELETE answered 500 (seen in the docs' walk). Here the order is forced: a third transaction holds the endpoint,
 * the DELETE queues for it, then the outcome starts; when the third lets go, neither may fail.
 */
class EndpointDeletionRaceTest extends SignedInTest {

    @Autowired
    DeliveryOutcomes outcomes;

    @Autowired
    TransactionTemplate transactions;

    @Autowired
    DataSource dataSource;

    @Test
    void aDeletionAndAnOutcomeRecordedAtTheSameTimeBothEndWell() throws Exception {
        Api.Response created =
                session.post("/api/v1/webhook-endpoints", Map.of("url", "https://hooks.example.invalid/kv-portal"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        UUID endpointId = UUID.fromString(created.json().get("id").asString());
        assertThat(session.post("/api/v1/webhook-endpoints/" + endpointId + "/test")
                        .status())
                .isEqualTo(202);
        // the worker's own first attempt (the name does not resolve) is over: pending, not leased
        await().atMost(Duration.ofSeconds(30))
                .until(() -> count(
                                "select count(*) from webhook_deliveries where endpoint_id = ? and attempts >= 1"
                                        + " and leased_until is null and status = 'pending'",
                                endpointId)
                        == 1);
        UUID deliveryId = single(UUID.class, "select id from webhook_deliveries where endpoint_id = ?", endpointId);
        int attempts = single(Integer.class, "select attempts from webhook_deliveries where id = ?", deliveryId);
        StoredDeliveries.Claimed claimed = new StoredDeliveries.Claimed(
                deliveryId,
                endpointId,
                "msg_race",
                "https://hooks.example.invalid/kv-portal",
                "{}",
                List.of(),
                attempts,
                attempts,
                false);

        CompletableFuture<Api.Response> deletion;
        CompletableFuture<Void> outcome;
        try (Connection holder = dataSource.getConnection()) {
            holder.setAutoCommit(false);
            try (PreparedStatement lock =
                    holder.prepareStatement("select 1 from webhook_endpoints where id = ? for no key update")) {
                lock.setObject(1, endpointId);
                lock.executeQuery().close();
            }
            deletion = CompletableFuture.supplyAsync(() -> session.delete("/api/v1/webhook-endpoints/" + endpointId));
            awaitWaiters(1);
            outcome = CompletableFuture.runAsync(() -> transactions.executeWithoutResult(
                    status -> outcomes.record(claimed, new WebhookClient.Outcome(500, 3, null))));
            awaitWaiters(2);
            holder.commit();
        }

        Api.Response deleted = deletion.get(20, TimeUnit.SECONDS);
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        outcome.get(20, TimeUnit.SECONDS); // throws if it was the deadlock's victim
        assertThat(count("select count(*) from webhook_endpoints where id = ?", endpointId))
                .isZero();
        assertThat(count("select count(*) from webhook_deliveries where endpoint_id = ?", endpointId))
                .isZero();
    }

    /** Until {@code n} sessions of this database wait for a lock. */
    private void awaitWaiters(int n) {
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> count("select count(*) from pg_stat_activity where datname = current_database()"
                                + " and wait_event_type = 'Lock'")
                        >= n);
    }
}
