package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.support.Api;
import com.kvportal.support.SandboxEvents;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The billing tests' road to a subscription through the sandbox's hosted checkout, and what it billed. */
final class SandboxCheckout {

    private SandboxCheckout() {}

    /**
     * Checks out a tier for the owner's organization, pays it in another browser, follows the provider's redirect
     * and waits until the sandbox has delivered the events it sent meanwhile; answers the checkout session's id.
     */
    static String pay(JdbcClient jdbc, Api owner, Api browser, String tier, Duration wait) {
        SandboxEvents events = SandboxEvents.fromNow(jdbc);
        String sessionId = owner.startCheckout(tier);
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        browser.follow(paid);
        events.awaitDelivered(wait);
        return sessionId;
    }

    /** The overage units queued for the organization's period that started then (its one outbox row). */
    static long chargedQuantity(JdbcClient jdbc, UUID organizationId, Instant periodStart) {
        return jdbc.sql("select quantity from usage_charge_outbox where organization_id = ? and period_start = ?")
                .params(organizationId, Timestamp.from(periodStart))
                .query(Long.class)
                .single();
    }
}
