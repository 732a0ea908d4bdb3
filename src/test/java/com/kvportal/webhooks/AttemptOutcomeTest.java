package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.webhooks.delivery.DeliveryError;
import com.kvportal.webhooks.delivery.DeliveryOutcomes;
import com.kvportal.webhooks.delivery.StoredDeliveries;
import com.kvportal.webhooks.delivery.WebhookClient;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * An attempt's outcome and a deletion of its endpoint at the same moment: the deletion holds the endpoint's row and
 * then takes its deliveries with it, so the outcome must take the endpoint's row before the delivery's, or the two
 * transactions wait for each other and PostgreSQL kills one (a 500 for the person deleting). The poll is an hour
 * apart, as in {@link FairClaimTest}, so only the test claims.
 */
@TestPropertySource(properties = "kvportal.webhooks.poll-interval=1h")
class AttemptOutcomeTest extends IntegrationTest {

    @Autowired
    StoredDeliveries deliveries;

    @Autowired
    DeliveryOutcomes outcomes;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void shouldLetAnEndpointBeDeletedWhileAnAttemptsOutcomeIsRecorded() throws Exception {
        Api api = signedUp();
        api.verifyEmail();
        UUID endpoint = QueuedDeliveries.endpoint(api);
        QueuedDeliveries.delivery(jdbc, endpoint, "pending", "1 second", null);
        StoredDeliveries.Claimed attempt =
                transactions.execute(status -> deliveries.claimDue(1000, 1000, Duration.ofMinutes(1))).stream()
                        .filter(claimed -> claimed.endpointId().equals(endpoint))
                        .findFirst()
                        .orElseThrow();

        CountDownLatch endpointLocked = new CountDownLatch(1);
        CompletableFuture<Void> deletion =
                CompletableFuture.runAsync(() -> transactions.executeWithoutResult(status -> {
                    // as WebhookEndpoints.delete does: the endpoint's row, then the row itself and its deliveries with
                    // it
                    jdbc.sql("select 1 from webhook_endpoints where id = ? for update")
                            .param(endpoint)
                            .query(Integer.class)
                            .single();
                    endpointLocked.countDown();
                    pause();
                    jdbc.sql("delete from webhook_endpoints where id = ?")
                            .param(endpoint)
                            .update();
                }));
        assertThat(endpointLocked.await(10, TimeUnit.SECONDS)).isTrue();
        transactions.executeWithoutResult(status -> outcomes.record(
                attempt,
                new WebhookClient.Outcome(
                        null, 5, DeliveryError.CONNECTION_REFUSED, "ConnectException: Connection refused")));
        deletion.get(10, TimeUnit.SECONDS);

        assertThat(count("select count(*) from webhook_endpoints where id = ?", endpoint))
                .isZero();
        assertThat(count("select count(*) from webhook_deliveries where endpoint_id = ?", endpoint))
                .isZero();
    }

    /** Long enough for the outcome to reach the endpoint's row while the deletion holds it. */
    private static void pause() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
