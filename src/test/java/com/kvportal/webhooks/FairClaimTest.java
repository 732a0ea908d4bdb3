package com.kvportal.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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
        UUID a1 = endpoint(a);
        UUID a2 = endpoint(a);
        UUID b1 = endpoint(b);
        UUID oldestOfA = delivery(a1, "pending", "10 minutes", null);
        UUID secondOfA1 = delivery(a1, "pending", "9 minutes", null);
        UUID onlyOfA2 = delivery(a2, "pending", "8 minutes", null);
        UUID retryOfA = delivery(a1, "delivered", null, "1 second");
        UUID onlyOfB = delivery(b1, "pending", "30 seconds", null);
        delivery(a2, "pending", "-1 minute", null); // not due yet

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

    private static UUID endpoint(Api api) {
        Api.Response created =
                api.post("/api/v1/webhook-endpoints", Map.of("url", "https://hooks.example.invalid/kv-portal"));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return UUID.fromString(created.json().get("id").asString());
    }

    /** A delivery of an event of its own, due {@code dueAgo} ago, or asked to be retried {@code retryAskedAgo} ago. */
    private UUID delivery(UUID endpoint, String status, String dueAgo, String retryAskedAgo) {
        String event = "msg_" + UUID.randomUUID().toString().replace("-", "");
        jdbc.sql(
                        """
                insert into webhook_events (id, organization_id, type, body)
                select ?, organization_id, 'webhook.test', '{}' from webhook_endpoints where id = ?""")
                .params(event, endpoint)
                .update();
        UUID id = UUID.randomUUID();
        jdbc.sql(
                        """
                insert into webhook_deliveries (id, endpoint_id, event_id, status, next_attempt_at, retry_requested_at)
                values (?, ?, ?, ?, now() - cast(? as interval), now() - cast(? as interval))""")
                .params(id, endpoint, event, status, dueAgo, retryAskedAgo)
                .update();
        return id;
    }
}
