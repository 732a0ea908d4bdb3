package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.kvportal.webhooks.delivery.StoredDeliveries;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order in which due deliveries are claimed, on the real SQL: each organization's next turn before anyone's turn
 * after it, its endpoints taking turns, a retry asked for in its turn (not ahead of other organizations' work), and
 * never more than the cap of one organization in flight. The poll is an hour apart here and the deliveries are
 * written straight into the outbox, so only the test claims.
 */
@TestPropertySource(properties = "kvportal.webhooks.poll-interval=1h")
class FairClaimTest extends IntegrationTest {

    private static final Duration LEASE = Duration.ofMinutes(1);

    @Autowired
    StoredDeliveries deliveries;

    @Autowired
    TransactionTemplate transactions;

    @Test
    void shouldTakeOrganizationsInTurnCapEachAndQueueARetryAskedForByWhenItWasAsked() {
        Api a = signedUpAndVerified();
        Api b = signedUpAndVerified();
        UUID a1 = QueuedDeliveries.endpoint(a);
        UUID a2 = QueuedDeliveries.endpoint(a);
        UUID b1 = QueuedDeliveries.endpoint(b);
        UUID oldestOfA = QueuedDeliveries.delivery(jdbc, a1, "pending", "10 minutes", null);
        UUID secondOfA1 = QueuedDeliveries.delivery(jdbc, a1, "pending", "9 minutes", null);
        UUID onlyOfA2 = QueuedDeliveries.delivery(jdbc, a2, "pending", "8 minutes", null);
        UUID retryOfA = QueuedDeliveries.delivery(jdbc, a1, "delivered", null, "1 second");
        UUID onlyOfB = QueuedDeliveries.delivery(jdbc, b1, "pending", "30 seconds", null);
        QueuedDeliveries.delivery(jdbc, a2, "pending", "-1 minute", null); // not due yet

        // each organization's first turn, although A's retry was asked for and A's other deliveries are older
        assertThat(claim(2, 4)).containsExactlyInAnyOrder(oldestOfA, onlyOfB);
        // a cap of 2 in flight: A has one more turn, and its endpoints take turns (a2's, though a1's next is older)
        assertThat(claim(10, 2)).containsExactly(onlyOfA2);
        assertThat(claim(10, 2)).isEmpty();

        finish(oldestOfA);
        assertThat(claim(10, 2)).containsExactly(secondOfA1);
        finish(onlyOfA2);
        assertThat(claim(10, 2)).containsExactly(retryOfA);
        assertThat(count(
                        "select count(*) from webhook_deliveries where retry_requested_at is not null"
                                + " and endpoint_id in (?, ?)",
                        a1,
                        a2))
                .isZero();
    }

    private List<UUID> claim(int limit, int perOrganization) {
        return transactions.execute(status -> deliveries.claimDue(limit, perOrganization, LEASE)).stream()
                .map(StoredDeliveries.Claimed::id)
                .toList();
    }

    /** The attempt ended: its lease is given back, as recording an outcome does. */
    private void finish(UUID delivery) {
        jdbc.sql("update webhook_deliveries set leased_until = null, status = 'delivered' where id = ?")
                .param(delivery)
                .update();
    }

    private Api signedUpAndVerified() {
        Api api = signedUp();
        api.verifyEmail();
        return api;
    }
}
