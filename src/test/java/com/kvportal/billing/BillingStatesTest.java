package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules of billing's states, without a database: statuses, and the transitions of a locked row. */
class BillingStatesTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");

    private static LockedSubscription subscription(SubscriptionStatus status) {
        return new LockedSubscription(
                UUID.randomUUID(), UUID.randomUUID(), UUID.randomUUID(), Tier.PRO, status, null, null, null, AT);
    }

    private static LockedInvoice invoice(InvoiceStatus status) {
        return new LockedInvoice(UUID.randomUUID(), UUID.randomUUID(), status, AT);
    }

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
            assertThat(SubscriptionStatus.of(status.wire())).contains(status);
        }
        assertThat(SubscriptionStatus.of("Active")).isEmpty();
        assertThat(SubscriptionStatus.of("")).isEmpty();
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
            assertThat(InvoiceStatus.of(status.wire())).contains(status);
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
    void aLockedInvoiceAcceptsNewsAsNewAsItsStateAndRefusesOlderNews() {
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT)).isTrue();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT.plusSeconds(1)))
                .isTrue();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.PAID, AT.minusSeconds(1)))
                .isFalse();
        assertThat(invoice(InvoiceStatus.PAID).accepts(InvoiceStatus.OPEN, AT.plusSeconds(60)))
                .isFalse();
        assertThat(invoice(InvoiceStatus.OPEN).accepts(InvoiceStatus.DRAFT, AT)).isFalse();
    }

    @Test
    void aLockedSubscriptionAcceptsNewerNewsUntilItHasEnded() {
        assertThat(subscription(SubscriptionStatus.ACTIVE).accept(AT)).isEqualTo(LockedSubscription.Verdict.ACCEPTED);
        assertThat(subscription(SubscriptionStatus.ACTIVE).accept(AT.plusSeconds(1)))
                .isEqualTo(LockedSubscription.Verdict.ACCEPTED);
        assertThat(subscription(SubscriptionStatus.ACTIVE).accept(AT.minusSeconds(1)))
                .isEqualTo(LockedSubscription.Verdict.OLDER);
        assertThat(subscription(SubscriptionStatus.CANCELED).accept(AT.plusSeconds(60)))
                .isEqualTo(LockedSubscription.Verdict.ENDED_ALREADY);
        assertThat(subscription(SubscriptionStatus.INCOMPLETE_EXPIRED).accept(AT))
                .isEqualTo(LockedSubscription.Verdict.ENDED_ALREADY);
    }

    @Test
    void aRunningSubscriptionIsMarkedPastDueByNewerNewsOnly() {
        assertThat(subscription(SubscriptionStatus.ACTIVE).markPastDue(AT)).contains(SubscriptionStatus.PAST_DUE);
        assertThat(subscription(SubscriptionStatus.TRIALING).markPastDue(AT.plusSeconds(1)))
                .contains(SubscriptionStatus.PAST_DUE);
        assertThat(subscription(SubscriptionStatus.ACTIVE).markPastDue(AT.minusSeconds(1)))
                .isEmpty();
        for (SubscriptionStatus other : new SubscriptionStatus[] {
            SubscriptionStatus.PAST_DUE,
            SubscriptionStatus.CANCELED,
            SubscriptionStatus.INCOMPLETE,
            SubscriptionStatus.UNPAID,
            SubscriptionStatus.PAUSED
        }) {
            assertThat(subscription(other).markPastDue(AT.plusSeconds(1)))
                    .as(other.wire())
                    .isEmpty();
        }
    }

    @Test
    void onlyAPastDueSubscriptionIsMarkedActiveAndByNewerNewsOnly() {
        assertThat(subscription(SubscriptionStatus.PAST_DUE).markActive(AT)).contains(SubscriptionStatus.ACTIVE);
        assertThat(subscription(SubscriptionStatus.PAST_DUE).markActive(AT.minusSeconds(1)))
                .isEmpty();
        for (SubscriptionStatus status : SubscriptionStatus.values()) {
            if (status != SubscriptionStatus.PAST_DUE) {
                assertThat(subscription(status).markActive(AT.plusSeconds(1)))
                        .as(status.wire())
                        .isEmpty();
            }
        }
    }

    @Test
    void aLineIsStorageOverageOnlyWhenItsMetadataSaysSo() {
        assertThat(InvoiceLine.Kind.ofMetadata("storage_overage")).isEqualTo(InvoiceLine.Kind.STORAGE_OVERAGE);
        assertThat(InvoiceLine.Kind.ofMetadata(null)).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
        assertThat(InvoiceLine.Kind.ofMetadata("Storage_Overage")).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
        assertThat(InvoiceLine.Kind.ofMetadata("subscription")).isEqualTo(InvoiceLine.Kind.SUBSCRIPTION);
    }
}
