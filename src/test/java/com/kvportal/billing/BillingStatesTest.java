package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.common.WireName;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The rules of billing's statuses, without a database (the transitions of a locked row: LockedSubscriptionTest,
 * LockedInvoiceTest).
 */
class BillingStatesTest {

    @Test
    void subscriptionStatusesAreStripesAndReadBackByTheirWireNames() {
        assertThat(Arrays.stream(SubscriptionStatus.values()).map(SubscriptionStatus::wire))
                .containsExactly(
                        "incomplete",
                        "incomplete_expired",
                        "trialing",
                        "active",
                        "past_due",
                        "canceled",
                        "unpaid",
                        "paused");
        for (SubscriptionStatus status : SubscriptionStatus.values()) {
            assertThat(WireName.of(SubscriptionStatus.class, status.wire())).contains(status);
        }
        assertThat(WireName.of(SubscriptionStatus.class, "Active")).isEmpty();
        assertThat(WireName.of(SubscriptionStatus.class, "")).isEmpty();
    }

    @Test
    void onlyCanceledAndIncompleteExpiredHaveEnded() {
        assertThat(Arrays.stream(SubscriptionStatus.values()).filter(SubscriptionStatus::hasEnded))
                .containsExactlyInAnyOrder(SubscriptionStatus.CANCELED, SubscriptionStatus.INCOMPLETE_EXPIRED);
    }

    @Test
    void activeTrialingAndPastDueGrantThePlan() {
        assertThat(Arrays.stream(SubscriptionStatus.values()).filter(SubscriptionStatus::grantsPlan))
                .containsExactlyInAnyOrder(
                        SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING, SubscriptionStatus.PAST_DUE);
    }

    @Test
    void paidAndVoidInvoicesAreSettled() {
        assertThat(Arrays.stream(InvoiceStatus.values()).filter(InvoiceStatus::isSettled))
                .containsExactlyInAnyOrder(InvoiceStatus.PAID, InvoiceStatus.VOID);
        for (InvoiceStatus status : InvoiceStatus.values()) {
            assertThat(WireName.of(InvoiceStatus.class, status.wire())).contains(status);
        }
    }

    @ParameterizedTest(name = "{0} can become {1}: {2}")
    @CsvSource({
        "DRAFT, OPEN, true",
        "DRAFT, PAID, true",
        "DRAFT, DRAFT, true",
        "OPEN, OPEN, true",
        "OPEN, PAID, true",
        "OPEN, UNCOLLECTIBLE, true",
        "UNCOLLECTIBLE, PAID, true",
        "PAID, VOID, true",
        "OPEN, DRAFT, false",
        "PAID, OPEN, false",
        "PAID, DRAFT, false",
        "VOID, UNCOLLECTIBLE, false"
    })
    void anInvoiceNeverGoesBackFromSettledToPayableNorFromFinalizedToDraft(
            InvoiceStatus from, InvoiceStatus to, boolean allowed) {
        assertThat(from.canBecome(to)).isEqualTo(allowed);
    }

    @Test
    void aLineIsStorageOverageOnlyWhenItsMetadataSaysSo() {
        assertThat(InvoiceLine.Kind.ofMetadata("storage_overage")).isEqualTo(InvoiceLine.Kind.STORAGE_OVERAGE);
        assertThat(InvoiceLine.Kind.ofMetadata(null)).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
        assertThat(InvoiceLine.Kind.ofMetadata("Storage_Overage")).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
        assertThat(InvoiceLine.Kind.ofMetadata("subscription")).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
    }
}
