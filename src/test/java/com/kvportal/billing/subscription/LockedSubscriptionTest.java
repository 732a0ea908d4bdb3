package com.kvportal.billing.subscription;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.BillingEvent.SubscriptionActivated;
import com.kvportal.billing.BillingEvent.SubscriptionCancelScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.BillingEvent.SubscriptionPlanChanged;
import com.kvportal.billing.BillingEvent.SubscriptionUpdated;
import com.kvportal.billing.Plan;
import com.kvportal.billing.SubscriptionStatus;
import com.kvportal.billing.Tier;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.billing.providerevents.ProviderEventType;
import com.kvportal.billing.stripe.ProviderSubscription;
import com.kvportal.billing.subscription.LockedSubscription.Transition;
import com.kvportal.billing.subscription.LockedSubscription.Verdict;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every transition of {@link LockedSubscription#on}: each event type against each status, newer and older news, and
 * the domain events each raises. Plain JUnit: no database, no Spring.
 */
class LockedSubscriptionTest {

    private static final Instant AT = Instant.parse("2026-11-21T10:00:00Z");
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    private static final Instant END = Instant.parse("2026-12-01T00:00:00Z");
    private static final Plan PRO = new Plan(UUID.randomUUID(), "Pro", Tier.PRO, 100, 2000, 10, 200);
    private static final Plan TEAM = new Plan(UUID.randomUUID(), "Team", Tier.TEAM, 1000, 10000, 100, 1500);
    private static final Plan FREE = new Plan(UUID.randomUUID(), "Free", Tier.FREE, 1, 0, 0, 0);
    private static final ProviderSubscriptionId PROVIDER_ID = new ProviderSubscriptionId("sub_1");
    private static final ProviderCustomerId CUSTOMER = new ProviderCustomerId("cus_1");

    private static final ProviderEventType[] STATING = {
        ProviderEventType.CHECKOUT_SESSION_COMPLETED,
        ProviderEventType.CUSTOMER_SUBSCRIPTION_CREATED,
        ProviderEventType.CUSTOMER_SUBSCRIPTION_UPDATED,
        ProviderEventType.CUSTOMER_SUBSCRIPTION_DELETED
    };

    private static LockedSubscription row(SubscriptionStatus status) {
        return row(status, null);
    }

    private static LockedSubscription row(SubscriptionStatus status, @Nullable Instant cancelAt) {
        return new LockedSubscription(
                UUID.randomUUID(), UUID.randomUUID(), PRO.id(), Tier.PRO, status, START, END, cancelAt, AT);
    }

    private static ProviderSubscription news(SubscriptionStatus status) {
        return news(status, START, END, null, null);
    }

    /** The provider's state of the subscription to pro, with this period, scheduled cancellation and ending. */
    private static ProviderSubscription news(
            SubscriptionStatus status,
            @Nullable Instant periodStart,
            @Nullable Instant periodEnd,
            @Nullable Instant cancelAt,
            @Nullable Instant endedAt) {
        return new ProviderSubscription(
                PROVIDER_ID, CUSTOMER, status, "price_pro", periodStart, periodEnd, cancelAt, endedAt, null);
    }

    // --- invoice.paid, invoice.payment_failed

    /** The news of an invoice of the subscription: the statuses it turns, and the status it turns them to. */
    private enum InvoiceNews {
        /** A past-due subscription is active again. */
        PAID(LockedSubscription::invoicePaid, SubscriptionStatus.ACTIVE, EnumSet.of(SubscriptionStatus.PAST_DUE)),
        /** A running subscription is past due. */
        PAYMENT_FAILED(
                LockedSubscription::paymentFailed,
                SubscriptionStatus.PAST_DUE,
                EnumSet.of(SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING));

        private final BiFunction<LockedSubscription, Instant, Transition> news;
        private final SubscriptionStatus to;
        private final EnumSet<SubscriptionStatus> turns;

        InvoiceNews(
                BiFunction<LockedSubscription, Instant, Transition> news,
                SubscriptionStatus to,
                EnumSet<SubscriptionStatus> turns) {
            this.news = news;
            this.to = to;
            this.turns = turns;
        }
    }

    @ParameterizedTest
    @EnumSource(InvoiceNews.class)
    void theNewsOfAnInvoiceTurnsItsStatusesAndSaysSo(InvoiceNews invoice) {
        for (SubscriptionStatus from : invoice.turns) {
            assertTurned(from, invoice.news, invoice.to);
        }
    }

    @ParameterizedTest
    @EnumSource(InvoiceNews.class)
    void theNewsOfAnInvoiceChangesNoOtherStatus(InvoiceNews invoice) {
        for (SubscriptionStatus status : EnumSet.complementOf(invoice.turns)) {
            assertUnchanged(invoice.news.apply(row(status), AT.plusSeconds(1)));
        }
    }

    @ParameterizedTest
    @EnumSource(InvoiceNews.class)
    void theNewsOfAnInvoiceOlderThanTheRowChangesNothing(InvoiceNews invoice) {
        for (SubscriptionStatus from : invoice.turns) {
            assertUnchanged(invoice.news.apply(row(from), AT.minusSeconds(1)));
        }
    }

    // --- the provider's state: checkout completion, subscription created, updated, deleted

    @ParameterizedTest
    @EnumSource(
            value = SubscriptionStatus.class,
            names = {"CANCELED", "INCOMPLETE_EXPIRED"})
    void anEndedSubscriptionStaysEndedWhateverTheProviderStates(SubscriptionStatus ended) {
        for (ProviderEventType event : STATING) {
            Transition transition =
                    row(ended).stated(event.stated(news(SubscriptionStatus.ACTIVE)), PRO, AT.plusSeconds(60));
            assertThat(transition.verdict()).as(event.wire()).isEqualTo(Verdict.ENDED_ALREADY);
            assertThat(transition.events()).as(event.wire()).isEmpty();
        }
    }

    @Test
    void olderStateNeverOverwritesNewer() {
        for (ProviderEventType event : STATING) {
            Transition transition = row(SubscriptionStatus.ACTIVE)
                    .stated(event.stated(news(SubscriptionStatus.PAST_DUE)), PRO, AT.minusSeconds(1));
            assertThat(transition.verdict()).as(event.wire()).isEqualTo(Verdict.OLDER);
            assertThat(transition.events()).as(event.wire()).isEmpty();
        }
    }

    @Test
    void stateAsNewAsTheRowIsAcceptedTheLaterArrivalWins() {
        Transition transition = row(SubscriptionStatus.ACTIVE).stated(news(SubscriptionStatus.ACTIVE), PRO, AT);
        assertThat(transition.verdict()).isEqualTo(Verdict.ACCEPTED);
        assertThat(transition.events()).as("nothing changed").isEmpty();
    }

    @Test
    void anEventOfTheRowsSecondThatSaysOtherwiseIsUncertainAndChangesNothing() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        List<ProviderSubscription> otherwise = List.of(
                news(SubscriptionStatus.PAST_DUE),
                news(SubscriptionStatus.ACTIVE, START, END, END, null),
                news(SubscriptionStatus.ACTIVE, END, END.plusSeconds(86_400), null, null),
                news(SubscriptionStatus.CANCELED, START, END, null, AT));
        for (ProviderSubscription news : otherwise) {
            Transition transition = row.statedByEvent(news, PRO, AT);
            assertThat(transition.verdict()).as("%s", news).isEqualTo(Verdict.UNCERTAIN);
            assertThat(transition.events()).as("%s", news).isEmpty();
        }
        assertThat(row.statedByEvent(news(SubscriptionStatus.ACTIVE), TEAM, AT).verdict())
                .as("another plan")
                .isEqualTo(Verdict.UNCERTAIN);
    }

    @Test
    void anEventOfTheRowsSecondThatAgreesOrANewerOneIsAcceptedAsAnAnswerIs() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        assertThat(row.statedByEvent(news(SubscriptionStatus.ACTIVE), PRO, AT))
                .isEqualTo(row.stated(news(SubscriptionStatus.ACTIVE), PRO, AT));
        ProviderSubscription pastDue = news(SubscriptionStatus.PAST_DUE);
        assertThat(row.statedByEvent(pastDue, PRO, AT.plusSeconds(1)))
                .isEqualTo(row.stated(pastDue, PRO, AT.plusSeconds(1)));
        assertThat(row.statedByEvent(pastDue, PRO, AT.minusSeconds(1)).verdict())
                .isEqualTo(Verdict.OLDER);
    }

    @ParameterizedTest
    @EnumSource(
            value = SubscriptionStatus.class,
            names = {"INCOMPLETE", "UNPAID", "PAUSED"})
    void aSubscriptionThatStartsToGrantItsPlanIsActivated(SubscriptionStatus before) {
        for (SubscriptionStatus granting : List.of(SubscriptionStatus.ACTIVE, SubscriptionStatus.TRIALING)) {
            LockedSubscription row = row(before);
            Transition transition = row.stated(news(granting), PRO, AT.plusSeconds(1));
            assertThat(transition.verdict()).isEqualTo(Verdict.ACCEPTED);
            assertThat(transition.events())
                    .containsExactly(new SubscriptionActivated(row.organizationId(), row.id(), Tier.PRO));
        }
    }

    @Test
    void checkoutCompletionActivatesAnIncompleteSubscription() {
        LockedSubscription row = row(SubscriptionStatus.INCOMPLETE);
        Transition transition = row.stated(news(SubscriptionStatus.ACTIVE), PRO, AT.plusSeconds(1));
        assertThat(transition.verdict()).isEqualTo(Verdict.ACCEPTED);
        assertThat(transition.events())
                .containsExactly(new SubscriptionActivated(row.organizationId(), row.id(), Tier.PRO));
    }

    @Test
    void aStatusChangeBetweenGrantingStatusesIsAnUpdate() {
        assertAnUpdate(row(SubscriptionStatus.ACTIVE), news(SubscriptionStatus.PAST_DUE), PRO);
    }

    @Test
    void aSubscriptionThatStopsGrantingItsPlanIsAnUpdate() {
        assertAnUpdate(row(SubscriptionStatus.PAST_DUE), news(SubscriptionStatus.UNPAID), PRO);
    }

    @Test
    void aNewPlanOrPeriodIsAnUpdateWithTheNewPlansTier() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        assertThat(row.stated(news(SubscriptionStatus.ACTIVE), TEAM, AT.plusSeconds(1))
                        .events())
                .containsExactly(
                        new SubscriptionUpdated(row.organizationId(), row.id(), Tier.TEAM, SubscriptionStatus.ACTIVE),
                        new SubscriptionPlanChanged(
                                row.organizationId(), row.id(), CUSTOMER, Tier.PRO, Tier.TEAM, null, null));
        ProviderSubscription renewed = news(SubscriptionStatus.ACTIVE, END, END.plusSeconds(86_400 * 30), null, null);
        assertAnUpdate(row, renewed, PRO);
    }

    @Test
    void aChangeThatStartsANewPeriodAtOnceEndsTheCurrentPeriodThen() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        ProviderSubscription upgraded = news(SubscriptionStatus.ACTIVE, AT, AT.plusSeconds(86_400 * 30), null, null);
        assertThat(row.stated(upgraded, TEAM, AT.plusSeconds(1)).events())
                .contains(new SubscriptionPlanChanged(
                        row.organizationId(), row.id(), CUSTOMER, Tier.PRO, Tier.TEAM, START, AT));
        ProviderSubscription atRenewal = news(SubscriptionStatus.ACTIVE, END, END.plusSeconds(86_400 * 30), null, null);
        assertThat(row.stated(atRenewal, TEAM, AT.plusSeconds(1)).events())
                .as("a change at the renewal cuts no period short: the renewal bills it")
                .contains(new SubscriptionPlanChanged(
                        row.organizationId(), row.id(), CUSTOMER, Tier.PRO, Tier.TEAM, null, null));
    }

    @Test
    void aNewlyScheduledCancellationIsAnnouncedOnItsOwn() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        ProviderSubscription canceling = news(SubscriptionStatus.ACTIVE, START, END, END, null);
        Transition transition = row.stated(canceling, PRO, AT.plusSeconds(1));
        assertThat(transition.events())
                .containsExactly(new SubscriptionCancelScheduled(row.organizationId(), row.id(), END));
    }

    @Test
    void aMovedOrWithdrawnCancellationIsAnUpdate() {
        assertAnUpdate(row(SubscriptionStatus.ACTIVE, END), news(SubscriptionStatus.ACTIVE), PRO);
    }

    @Test
    void anEndingStatesTheLastPeriodAndWhenItEndedAtTheProvider() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        Instant endedAt = AT.plusSeconds(30);
        ProviderSubscription canceled = news(SubscriptionStatus.CANCELED, START, END, null, endedAt);
        assertEnded(row, row.stated(canceled, PRO, AT.plusSeconds(60)), endedAt);
    }

    @Test
    void aDeletionEndsTheSubscriptionWhateverStatusItsObjectShows() {
        LockedSubscription row = row(SubscriptionStatus.ACTIVE);
        Instant newsAt = AT.plusSeconds(60);
        ProviderSubscription withoutPeriod = news(SubscriptionStatus.ACTIVE, null, null, null, null);
        // the period recorded before, and the provider's news for the moment: never the service's clock
        assertEnded(
                row,
                row.stated(ProviderEventType.CUSTOMER_SUBSCRIPTION_DELETED.stated(withoutPeriod), PRO, newsAt),
                newsAt);
        assertThat(ProviderEventType.CUSTOMER_SUBSCRIPTION_DELETED
                        .stated(withoutPeriod)
                        .status())
                .isEqualTo(SubscriptionStatus.CANCELED);
        assertThat(ProviderEventType.CUSTOMER_SUBSCRIPTION_UPDATED.stated(withoutPeriod))
                .isEqualTo(withoutPeriod);
    }

    // --- a subscription recorded for the first time

    @Test
    void aNewSubscriptionIsActivatedWhenItGrantsItsPlanAndItsCancellationAnnounced() {
        UUID organization = UUID.randomUUID();
        UUID id = UUID.randomUUID();
        assertThat(LockedSubscription.eventsOfNew(organization, id, PRO, news(SubscriptionStatus.TRIALING), AT))
                .containsExactly(new SubscriptionActivated(organization, id, Tier.PRO));
        assertThat(LockedSubscription.eventsOfNew(organization, id, PRO, news(SubscriptionStatus.INCOMPLETE), AT))
                .isEmpty();
        ProviderSubscription canceling = news(SubscriptionStatus.ACTIVE, START, END, END, null);
        assertThat(LockedSubscription.eventsOfNew(organization, id, PRO, canceling, AT))
                .containsExactly(
                        new SubscriptionActivated(organization, id, Tier.PRO),
                        new SubscriptionCancelScheduled(organization, id, END));
        assertThat(LockedSubscription.eventsOfNew(
                        organization, id, PRO, news(SubscriptionStatus.INCOMPLETE_EXPIRED), AT))
                .containsExactly(new SubscriptionEnded(organization, id, CUSTOMER, Tier.PRO, START, END, AT));
    }

    @Test
    void everyEventTypeHasItsWireNameAndNoOtherIsHandled() {
        for (ProviderEventType type : ProviderEventType.values()) {
            assertThat(ProviderEventType.of(type.wire())).contains(type);
        }
        assertThat(ProviderEventType.of("customer.created")).isEmpty();
        assertThat(ProviderEventType.of("INVOICE_PAID")).isEmpty();
    }

    /** The invoice event, as new as the row, turns it to {@code to} and raises the one update that says so. */
    private static void assertTurned(
            SubscriptionStatus from, BiFunction<LockedSubscription, Instant, Transition> news, SubscriptionStatus to) {
        LockedSubscription row = row(from);
        Transition transition = news.apply(row, AT);
        assertThat(transition.verdict()).isEqualTo(Verdict.TURNED);
        assertThat(transition.to()).isEqualTo(to);
        assertThat(transition.events())
                .containsExactly(new SubscriptionUpdated(row.organizationId(), row.id(), Tier.PRO, to));
    }

    /**
     * The provider's newer state and plan, in a {@code customer.subscription.updated}, raise exactly one update: of
     * that plan's tier and that state's status.
     */
    private static void assertAnUpdate(LockedSubscription row, ProviderSubscription news, Plan plan) {
        assertThat(row.stated(news, plan, AT.plusSeconds(1)).events())
                .containsExactly(new SubscriptionUpdated(row.organizationId(), row.id(), plan.tier(), news.status()));
    }

    /** The news is accepted and ends the row: its recorded period, on the provider's customer, ended at {@code at}. */
    private static void assertEnded(LockedSubscription row, Transition transition, Instant at) {
        assertThat(transition.verdict()).isEqualTo(Verdict.ACCEPTED);
        assertThat(transition.events())
                .containsExactly(
                        new SubscriptionEnded(row.organizationId(), row.id(), CUSTOMER, Tier.PRO, START, END, at));
    }

    private static void assertUnchanged(Transition transition) {
        assertThat(transition.verdict()).isEqualTo(Verdict.UNCHANGED);
        assertThat(transition.to()).isNull();
        assertThat(transition.events()).isEmpty();
    }
}
