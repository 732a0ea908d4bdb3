package com.kvportal.billing;

import static com.kvportal.billing.StripePayloads.event;
import static com.kvportal.billing.StripePayloads.eventId;
import static com.kvportal.billing.StripePayloads.itemLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.BillingEvent.CheckoutStarted;
import com.kvportal.billing.BillingEvent.InvoicePaid;
import com.kvportal.billing.BillingEvent.InvoicePaymentFailed;
import com.kvportal.billing.BillingEvent.RenewalInvoiceDrafted;
import com.kvportal.billing.BillingEvent.SubscriptionActivated;
import com.kvportal.billing.BillingEvent.SubscriptionCancelScheduled;
import com.kvportal.billing.BillingEvent.SubscriptionEnded;
import com.kvportal.billing.BillingEvent.SubscriptionUpdated;
import com.kvportal.billing.BillingEventsTest.Recorder;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.support.Api;
import com.kvportal.support.Concurrently;
import com.kvportal.support.IntegrationTest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.test.context.TestPropertySource;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import tools.jackson.databind.JsonNode;

/**
 * Billing's domain events and what other features build on: the renewal draft of {@code invoice.created}, the
 * subscription and invoice events, invoice lines with their kind, the effective plan and period, and the
 * webhook's counter. Events are recorded by a plain listener, as another feature would receive them.
 */
@TestPropertySource(properties = "PAYMENT_WEBHOOK_SECRET=" + Webhooks.SECRET)
@Import(Recorder.class)
class BillingEventsTest extends IntegrationTest {

    /** Records billing's events with whether they arrived inside a transaction; fails once where asked. */
    @TestConfiguration
    static class Recorder {

        record Received(Object event, boolean inTransaction) {}

        final List<Received> received = new CopyOnWriteArrayList<>();
        final Set<UUID> failNextRenewal = ConcurrentHashMap.newKeySet();

        @EventListener
        void on(RenewalInvoiceDrafted event) {
            if (failNextRenewal.remove(event.organizationId())) {
                throw new IllegalStateException("a listener fails");
            }
            record(event);
        }

        @EventListener({
            SubscriptionActivated.class,
            SubscriptionUpdated.class,
            SubscriptionCancelScheduled.class,
            SubscriptionEnded.class,
            InvoicePaid.class,
            InvoicePaymentFailed.class,
            CheckoutStarted.class
        })
        void record(Object event) {
            received.add(new Received(event, TransactionSynchronizationManager.isActualTransactionActive()));
        }
    }

    @Autowired
    Recorder recorder;

    @Autowired
    Billing billing;

    @Autowired
    OrganizationPlans organizationPlans;

    @Autowired
    MeterRegistry meters;

    private ProviderCustomer org;

    @BeforeEach
    void anOrganizationWithAProviderCustomer() {
        org = ProviderCustomer.signUp(baseUrl(), jdbc, Duration.ofDays(30));
    }

    private void subscribed(Instant at) {
        org.deliverOk(org.subscriptionEvent("customer.subscription.created", at, "active"));
    }

    private String renewalDraft(String invoiceId, String billingReason, String status, List<String> extraLines) {
        return org.invoice(invoiceId, status, billingReason, 2000, 0, 0, Instant.now(), extraLines);
    }

    /** This organization's events of {@code type}, in the order they were published. */
    private <T> List<T> received(Class<T> type) {
        return recorder.received.stream()
                .map(Recorder.Received::event)
                .filter(type::isInstance)
                .map(type::cast)
                .filter(e -> organizationOf(e).equals(org.organizationId()))
                .toList();
    }

    private List<Object> receivedOfThisOrganization() {
        return recorder.received.stream()
                .map(Recorder.Received::event)
                .filter(e -> organizationOf(e).equals(org.organizationId()))
                .toList();
    }

    /** The organization a billing event is about: every one of them names it as {@code organizationId}. */
    private static UUID organizationOf(Object event) {
        try {
            return (UUID) event.getClass().getMethod("organizationId").invoke(event);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(event + " names no organization", e);
        }
    }

    private JsonNode onlyInvoice() {
        JsonNode invoices = org.invoices();
        assertThat(invoices.size()).isOne();
        return invoices.get(0);
    }

    private long invoiceRows(String providerInvoiceId) {
        return count("select count(*) from invoices where provider_invoice_id = ?", providerInvoiceId);
    }

    private boolean processed(String eventId) {
        return single(
                Boolean.class, "select exists (select 1 from processed_webhook_events where event_id = ?)", eventId);
    }

    private double webhookCount(String type, String outcome) {
        Counter counter = meters.find("kvportal.webhook.events")
                .tag("type", type)
                .tag("outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    // --- invoice.created ---

    @Test
    void aRenewalDraftIsAnnouncedInsideTheWebhooksTransactionAndStoredAsDraftWithItsLines() {
        subscribed(Instant.now().minusSeconds(60));
        String invoiceId = "in_" + StripePayloads.random();

        org.deliverOk(event(
                "invoice.created", Instant.now(), renewalDraft(invoiceId, "subscription_cycle", "draft", List.of())));

        assertThat(received(RenewalInvoiceDrafted.class))
                .containsExactly(new RenewalInvoiceDrafted(
                        org.organizationId(),
                        new ProviderInvoiceId(invoiceId),
                        new ProviderCustomerId(org.customer()),
                        Tier.PRO,
                        org.periodStart(),
                        org.periodEnd()));
        assertThat(recorder.received.stream()
                        .filter(r -> r.event() instanceof RenewalInvoiceDrafted e
                                && e.providerInvoiceId().value().equals(invoiceId)))
                .allMatch(Recorder.Received::inTransaction);
        JsonNode invoice = onlyInvoice();
        assertThat(invoice.get("provider_invoice_id").asString()).isEqualTo(invoiceId);
        assertThat(invoice.get("status").asString()).isEqualTo("draft");
        assertThat(invoice.get("period_start").asString())
                .isEqualTo(org.periodStart().toString());
        assertThat(invoice.get("period_end").asString())
                .isEqualTo(org.periodEnd().toString());
        JsonNode lines = invoice.get("lines");
        assertThat(lines.size()).isOne();
        assertThat(lines.get(0).get("description").asString()).isEqualTo("1 × Pro (at $20.00 / month)");
        assertThat(lines.get(0).get("quantity").asLong()).isOne();
        assertThat(lines.get(0).get("amount_cents").asLong()).isEqualTo(2000);
        assertThat(lines.get(0).get("kind").asString()).isEqualTo("subscription");
    }

    @Test
    void anInvoiceThatIsNoRenewalDraftIsStoredButAnnouncesNothing() {
        subscribed(Instant.now().minusSeconds(60));
        String first = "in_" + StripePayloads.random();
        String finalized = "in_" + StripePayloads.random();

        org.deliverOk(event(
                "invoice.created", Instant.now(), renewalDraft(first, "subscription_create", "draft", List.of())));
        org.deliverOk(event(
                "invoice.created", Instant.now(), renewalDraft(finalized, "subscription_cycle", "open", List.of())));

        assertThat(received(RenewalInvoiceDrafted.class)).isEmpty();
        assertThat(invoiceRows(first)).isOne();
        assertThat(invoiceRows(finalized)).isOne();
    }

    @Test
    void aRenewalDraftOfAStrangerIsAnswered200AndChangesNothing() {
        String invoiceId = "in_" + StripePayloads.random();
        String body = org.withCustomer("cus_" + StripePayloads.random())
                .invoice(invoiceId, "draft", "subscription_cycle", 2000, 0, 0, Instant.now(), List.of());

        org.deliverOk(event("invoice.created", Instant.now(), body));

        assertThat(invoiceRows(invoiceId)).isZero();
        assertThat(recorder.received.stream()
                        .filter(r -> r.event() instanceof RenewalInvoiceDrafted e
                                && e.providerInvoiceId().value().equals(invoiceId)))
                .isEmpty();
    }

    @Test
    void aRenewalDraftDeliveredManyTimesConcurrentlyIsAnnouncedOnce() throws Exception {
        subscribed(Instant.now().minusSeconds(60));
        String invoiceId = "in_" + StripePayloads.random();
        String body = event(
                "invoice.created", Instant.now(), renewalDraft(invoiceId, "subscription_cycle", "draft", List.of()));
        double duplicatesBefore = webhookCount("invoice.created", "duplicate");

        for (Api.Response response : Concurrently.run(8, () -> org.deliver(body))) {
            assertThat(response.status()).as(response.toString()).isEqualTo(200);
        }
        org.deliverOk(body);

        assertThat(received(RenewalInvoiceDrafted.class)).hasSize(1);
        assertThat(invoiceRows(invoiceId)).isOne();
        assertThat(webhookCount("invoice.created", "duplicate") - duplicatesBefore)
                .isGreaterThanOrEqualTo(8);
    }

    @Test
    void aListenerThatFailsMakesTheWebhookAnswer5xxAndTheRetryAppliesOnce() {
        subscribed(Instant.now().minusSeconds(60));
        String invoiceId = "in_" + StripePayloads.random();
        String id = eventId();
        String body = event(
                id,
                "invoice.created",
                Instant.now(),
                renewalDraft(invoiceId, "subscription_cycle", "draft", List.of()));
        double failedBefore = webhookCount("invoice.created", "failed");
        recorder.failNextRenewal.add(org.organizationId());

        Api.Response failed = org.deliver(body);

        assertThat(failed.status()).as(failed.toString()).isGreaterThanOrEqualTo(500);
        assertThat(processed(id)).isFalse();
        assertThat(invoiceRows(invoiceId)).isZero();
        assertThat(received(RenewalInvoiceDrafted.class)).isEmpty();
        assertThat(webhookCount("invoice.created", "failed") - failedBefore).isEqualTo(1);

        org.deliverOk(body);
        org.deliverOk(body);

        assertThat(processed(id)).isTrue();
        assertThat(received(RenewalInvoiceDrafted.class)).hasSize(1);
        assertThat(onlyInvoice().get("status").asString()).isEqualTo("draft");
    }

    // --- lines ---

    @Test
    void theOverageLineShowsWithItsKindAndLaterNewsUpdatesTheLinesButOlderNewsDoesNot() {
        subscribed(Instant.now().minusSeconds(120));
        String invoiceId = "in_" + StripePayloads.random();
        Instant drafted = Instant.now().minusSeconds(60);
        org.deliverOk(
                event("invoice.created", drafted, renewalDraft(invoiceId, "subscription_cycle", "draft", List.of())));
        String overage = itemLine(invoiceId, "Storage overage: 5 × 10 GiB above 100 GiB", 5, 1000, "storage_overage");
        String untagged = itemLine(invoiceId, "A one-off item", 1, 300, null);

        org.deliverOk(event(
                "invoice.paid",
                Instant.now(),
                org.invoice(
                        invoiceId, "paid", "subscription_cycle", 3300, 3300, 1, drafted, List.of(overage, untagged))));
        // the draft's event again, with a new id: older news, it changes nothing
        org.deliverOk(
                event("invoice.created", drafted, renewalDraft(invoiceId, "subscription_cycle", "draft", List.of())));

        JsonNode invoice = onlyInvoice();
        assertThat(invoice.get("status").asString()).isEqualTo("paid");
        assertThat(invoice.get("amount_due_cents").asLong()).isEqualTo(3300);
        JsonNode lines = invoice.get("lines");
        assertThat(lines.size()).isEqualTo(3);
        assertThat(lines.get(0).get("kind").asString()).isEqualTo("subscription");
        assertThat(lines.get(0).get("amount_cents").asLong()).isEqualTo(2000);
        assertThat(lines.get(1).get("description").asString()).isEqualTo("Storage overage: 5 × 10 GiB above 100 GiB");
        assertThat(lines.get(1).get("quantity").asLong()).isEqualTo(5);
        assertThat(lines.get(1).get("amount_cents").asLong()).isEqualTo(1000);
        assertThat(lines.get(1).get("kind").asString()).isEqualTo("storage_overage");
        assertThat(lines.get(2).get("kind").asString()).isEqualTo("subscription");
    }

    @Test
    void aFinalizedInvoiceNeverGoesBackToDraftEvenWhenTheDraftsNewsIsStampedTheSameSecond() {
        subscribed(Instant.now().minusSeconds(60));
        String invoiceId = "in_" + StripePayloads.random();
        Instant now = Instant.now();
        org.deliverOk(event("invoice.payment_failed", now, org.invoice(invoiceId, "open", 2000, 0, 1, now)));

        org.deliverOk(event("invoice.created", now, renewalDraft(invoiceId, "subscription_cycle", "draft", List.of())));

        assertThat(onlyInvoice().get("status").asString()).isEqualTo("open");
        // the late draft is still announced: an item for it goes pending when the provider refuses it
        assertThat(received(RenewalInvoiceDrafted.class)).hasSize(1);
    }

    // --- the other domain events ---

    @Test
    void aSubscriptionsLifeIsAnnouncedEventByEventInsideTheTransactionsOfItsChanges() {
        Instant t = Instant.now().minusSeconds(100);
        subscribed(t);
        String subscriptionUuid = jdbc.sql("select id::text from subscriptions where provider_subscription_id = ?")
                .param(org.subscriptionId())
                .query(String.class)
                .single();
        UUID id = UUID.fromString(subscriptionUuid);
        String failing = "in_" + StripePayloads.random();
        org.deliverOk(event("invoice.payment_failed", t.plusSeconds(10), org.invoice(failing, "open", 2000, 0, 1, t)));
        org.deliverOk(event("invoice.paid", t.plusSeconds(20), org.invoice(failing, "paid", 2000, 2000, 2, t)));
        org.deliverOk(
                event("customer.subscription.updated", t.plusSeconds(30), org.subscription("active", null, true)));
        org.deliverOk(
                event("customer.subscription.deleted", t.plusSeconds(40), org.subscription("canceled", null, true)));

        UUID organization = org.organizationId();
        assertThat(receivedOfThisOrganization())
                .containsExactly(
                        new SubscriptionActivated(organization, id, Tier.PRO),
                        new InvoicePaymentFailed(organization, new ProviderInvoiceId(failing), 1),
                        new SubscriptionUpdated(organization, id, Tier.PRO, SubscriptionStatus.PAST_DUE),
                        new InvoicePaid(organization, new ProviderInvoiceId(failing), 2000, "usd"),
                        new SubscriptionUpdated(organization, id, Tier.PRO, SubscriptionStatus.ACTIVE),
                        new SubscriptionCancelScheduled(organization, id, org.periodEnd()),
                        new SubscriptionEnded(
                                organization,
                                id,
                                new ProviderCustomerId(org.customer()),
                                Tier.PRO,
                                org.periodStart(),
                                org.periodEnd(),
                                t.plusSeconds(40).truncatedTo(ChronoUnit.SECONDS)));
        assertThat(recorder.received.stream()
                        .filter(r -> organizationOf(r.event()).equals(organization)))
                .allMatch(Recorder.Received::inTransaction);
    }

    @Test
    void olderOrDuplicateNewsAnnouncesNothing() {
        Instant t = Instant.now().minusSeconds(100);
        subscribed(t);
        String body = org.subscriptionEvent("customer.subscription.updated", t.plusSeconds(10), "past_due");
        org.deliverOk(body);
        org.deliverOk(body);
        org.deliverOk(
                event("customer.subscription.updated", t.minusSeconds(10), org.subscription("active", null, true)));

        assertThat(receivedOfThisOrganization()).hasSize(2);
        assertThat(received(SubscriptionUpdated.class)).hasSize(1);
    }

    @Test
    void startingACheckoutIsAnnounced() {
        Api buyer = api();
        Api.Account buyerAccount = buyer.signup();

        String sessionId = buyer.startCheckout("pro");

        assertThat(recorder.received.stream().map(Recorder.Received::event))
                .contains(new CheckoutStarted(
                        buyerAccount.organizationId(), buyerAccount.customerId(), Tier.PRO, sessionId));
    }

    // --- what usage reads ---

    @Test
    void theCurrentPeriodIsTheSubscriptionsWhileItLivesAndTheCalendarMonthOtherwise() {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        OrganizationPlans.PlanPeriod month = organizationPlans.currentPeriod(org.organizationId(), Instant.now());
        assertThat(month.plan().tier()).isEqualTo(Tier.FREE);
        assertThat(month.start())
                .isEqualTo(today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant());
        assertThat(month.end())
                .isEqualTo(today.withDayOfMonth(1)
                        .plusMonths(1)
                        .atStartOfDay(ZoneOffset.UTC)
                        .toInstant());
        assertThat(billing.effectivePlan(org.organizationId()).tier()).isEqualTo(Tier.FREE);

        subscribed(Instant.now());

        OrganizationPlans.PlanPeriod period = organizationPlans.currentPeriod(org.organizationId(), Instant.now());
        assertThat(period.start()).isEqualTo(org.periodStart());
        assertThat(period.end()).isEqualTo(org.periodEnd());
        assertThat(period.plan().tier()).isEqualTo(Tier.PRO);
        Plan plan = billing.effectivePlan(org.organizationId());
        assertThat(plan.tier()).isEqualTo(Tier.PRO);
        assertThat(plan.storageBytes()).isEqualTo(107_374_182_400L);
        assertThat(plan.overageBytes()).isEqualTo(10_737_418_240L);
        assertThat(plan.overagePriceCents()).isEqualTo(200);
    }

    @Test
    void theEntitlementsOfOrganizationsWhoseSubscriptionsChangedAreReadInOneCall() {
        Instant before = Instant.now().minusSeconds(60);
        assertThat(organizationPlans.entitlementsChangedSince(before)).doesNotContainKey(org.organizationId());

        subscribed(Instant.now().minusSeconds(30));
        Entitlement subscribed =
                organizationPlans.entitlementsChangedSince(before).get(org.organizationId());
        assertThat(subscribed.tier()).isEqualTo(Tier.PRO);
        assertThat(subscribed.subscriptionStatus()).isEqualTo(SubscriptionStatus.ACTIVE);
        assertThat(organizationPlans.entitlement(org.organizationId())).isEqualTo(subscribed);

        org.deliverOk(org.subscriptionEvent("customer.subscription.deleted", Instant.now(), "canceled"));
        Entitlement ended = organizationPlans.entitlementsChangedSince(before).get(org.organizationId());
        assertThat(ended.tier()).isEqualTo(Tier.FREE);
        assertThat(ended.subscriptionStatus()).isNull();
        assertThat(organizationPlans.entitlement(org.organizationId())).isEqualTo(ended);
        assertThat(organizationPlans.entitlementsChangedSince(Instant.now().plusSeconds(60)))
                .doesNotContainKey(org.organizationId());
    }

    @Test
    void aPastDueOrganizationKeepsItsPlanAndWritesOnAboveTheAllowance() {
        Instant before = Instant.now().minusSeconds(120);
        subscribed(Instant.now().minusSeconds(60));
        Instant now = Instant.now();
        String invoiceId = "in_" + StripePayloads.random();
        org.deliverOk(event("invoice.payment_failed", now, org.invoice(invoiceId, "open", 2000, 0, 1, now)));

        Entitlement pastDue = organizationPlans.entitlement(org.organizationId());
        assertThat(pastDue.tier()).isEqualTo(Tier.PRO);
        assertThat(pastDue.subscriptionStatus()).isEqualTo(SubscriptionStatus.PAST_DUE);
        assertThat(pastDue.mayWrite(10 * pastDue.allowanceBytes())).isTrue();
        assertThat(organizationPlans.entitlementsChangedSince(before).get(org.organizationId()))
                .isEqualTo(pastDue);
    }

    // --- the schema ---

    @Test
    void theDatabaseChecksExactlyTheStatusesAndKindsTheTypesKnow() {
        assertThat(allowedValues("subscriptions", "status"))
                .containsExactlyInAnyOrder(Arrays.stream(SubscriptionStatus.values())
                        .map(SubscriptionStatus::wire)
                        .toArray(String[]::new));
        assertThat(allowedValues("invoices", "status"))
                .containsExactlyInAnyOrder(Arrays.stream(InvoiceStatus.values())
                        .map(InvoiceStatus::wire)
                        .toArray(String[]::new));
        assertThat(allowedValues("invoice_lines", "kind"))
                .containsExactlyInAnyOrder(Arrays.stream(InvoiceLine.Kind.values())
                        .map(InvoiceLine.Kind::wire)
                        .toArray(String[]::new));
    }

    /** The values a check constraint of the table allows in the column ({@code column in ('a', 'b')}). */
    private List<String> allowedValues(String table, String column) {
        List<String> definitions = jdbc
                .sql(
                        "select pg_get_constraintdef(oid) from pg_constraint where conrelid = ?::regclass and contype = 'c'")
                .param(table)
                .query(String.class)
                .list()
                .stream()
                .filter(definition -> definition.contains("(" + column + " ="))
                .toList();
        assertThat(definitions).as(table + "." + column).hasSize(1);
        return Pattern.compile("'([a-z_]+)'::text")
                .matcher(definitions.get(0))
                .results()
                .map(match -> match.group(1))
                .toList();
    }

    // --- the counter ---

    @Test
    void everyDeliveryIsCountedByTypeAndOutcome() {
        double applied = webhookCount("customer.subscription.created", "applied");
        double ignored = webhookCount("other", "ignored");
        double rejected = webhookCount("unknown", "rejected");

        subscribed(Instant.now());
        org.deliverOk(event("plan.created", Instant.now(), "{\"id\": \"price_1\", \"object\": \"plan\"}"));
        assertThat(org.webhooks().post("{}", "t=1,v1=" + "ab".repeat(32)).status())
                .isEqualTo(400);

        assertThat(webhookCount("customer.subscription.created", "applied") - applied)
                .isEqualTo(1);
        assertThat(webhookCount("other", "ignored") - ignored).isGreaterThanOrEqualTo(1);
        assertThat(webhookCount("unknown", "rejected") - rejected).isGreaterThanOrEqualTo(1);
    }
}
