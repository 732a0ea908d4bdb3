package com.kvportal.billing;

import static org.assertj.core.api.Assertions.assertThat;

import com.kvportal.billing.BillingEvent.RenewalInvoiceDrafted;
import com.kvportal.billing.BillingInvoiceItemsTest.OverageLikeListener;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.invoice.ProviderInvoiceItems;
import com.kvportal.billing.stripe.InvoiceItem;
import com.kvportal.billing.stripe.InvoiceItemRequest;
import com.kvportal.billing.stripe.ProviderIdempotencyKeys;
import com.kvportal.billing.stripe.StripeGateway;
import com.kvportal.support.Api;
import com.kvportal.support.IntegrationTest;
import com.stripe.param.InvoiceListParams;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import tools.jackson.databind.JsonNode;

/**
 * Billing's invoice items through the real stripe-java client against the built-in sandbox: an item added to a
 * renewal draft while {@code invoice.created} is handled, the pending fallback when the invoice is no longer a
 * draft, idempotency keys, and the final invoice of a customer. A listener stands in for the overage biller.
 */
@Import(OverageLikeListener.class)
class BillingInvoiceItemsTest extends IntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    /** Adds one storage-overage item of 5 × $2.00 to the renewal drafts of the organizations it is told of. */
    @TestConfiguration
    static class OverageLikeListener {

        final Set<UUID> organizations = ConcurrentHashMap.newKeySet();
        final List<InvoiceItem> added = new CopyOnWriteArrayList<>();
        private final ProviderInvoiceItems items;

        OverageLikeListener(ProviderInvoiceItems items) {
            this.items = items;
        }

        @EventListener
        void on(RenewalInvoiceDrafted drafted) {
            if (organizations.contains(drafted.organizationId())) {
                added.add(items.addInvoiceItem(overage(
                        drafted.providerCustomerId(),
                        drafted.providerInvoiceId(),
                        drafted.organizationId(),
                        drafted.periodStart(),
                        drafted.periodEnd(),
                        ProviderIdempotencyKeys.renewalOverage(drafted.providerInvoiceId()))));
            }
        }
    }

    @Autowired
    OverageLikeListener listener;

    @Autowired
    ProviderInvoiceItems items;

    @Autowired
    StripeGateway gateway;

    private Api owner;
    private Api browser;
    private Api.Account account;
    private ProviderCustomerId customer;
    private String subscriptionId;

    static InvoiceItemRequest overage(
            ProviderCustomerId customer,
            @Nullable ProviderInvoiceId invoice,
            UUID organizationId,
            Instant periodStart,
            Instant periodEnd,
            String idempotencyKey) {
        return new InvoiceItemRequest(
                customer,
                invoice,
                5,
                200,
                "usd",
                "Storage overage: 5 × 10 GiB above 100 GiB",
                periodStart,
                periodEnd,
                Map.of(
                        "organization_id",
                        organizationId.toString(),
                        "period_start",
                        periodStart.toString(),
                        InvoiceLine.KIND_KEY,
                        "storage_overage"),
                idempotencyKey);
    }

    @BeforeEach
    void aProSubscriptionBoughtAtTheSandbox() {
        owner = api();
        browser = api();
        account = owner.signup();
        String sessionId = owner.startCheckout("pro");
        Api.Response paid = browser.payCheckout(sessionId, "succeeded");
        assertThat(paid.status()).as(paid.toString()).isEqualTo(303);
        browser.follow(paid);
        await(
                "the first invoice is paid",
                () -> invoices().size() == 1 && status(invoices().get(0)).equals("paid"));
        JsonNode subscription = owner.get("/api/v1/billing/subscription").json().get("subscription");
        customer =
                new ProviderCustomerId(subscription.get("provider_customer_id").asString());
        subscriptionId = subscription.get("provider_subscription_id").asString();
    }

    private List<JsonNode> invoices() {
        return elements(owner.get("/api/v1/billing/invoices").json().get("invoices"));
    }

    private static String status(JsonNode invoice) {
        return invoice.get("status").asString();
    }

    private static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(condition);
    }

    /** Waits until the renewal, the newer of two invoices, is paid with two lines. */
    private void awaitPaidRenewalWithTwoLines(String what) {
        await(
                what,
                () -> invoices().size() == 2
                        && status(invoices().get(0)).equals("paid")
                        && lines(invoices().get(0)).size() == 2);
    }

    private void advance() {
        Api.Response advanced = sandbox().post("/sandbox/subscriptions/" + subscriptionId + "/advance");
        assertThat(advanced.status()).as(advanced.toString()).isEqualTo(200);
    }

    private static List<JsonNode> lines(JsonNode invoice) {
        return elements(invoice.get("lines"));
    }

    private static List<JsonNode> elements(JsonNode array) {
        List<JsonNode> elements = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            elements.add(array.get(i));
        }
        return elements;
    }

    @Test
    void anItemAddedWhileTheRenewalIsADraftIsBilledOnItAsAStorageOverageLine() {
        listener.organizations.add(account.organizationId());

        advance();

        awaitPaidRenewalWithTwoLines("the renewal is paid with its overage line");
        JsonNode renewal = invoices().get(0);
        assertThat(renewal.get("amount_due_cents").asLong()).isEqualTo(3000);
        assertThat(renewal.get("amount_paid_cents").asLong()).isEqualTo(3000);
        List<JsonNode> lines = lines(renewal);
        assertThat(lines.get(0).get("kind").asString()).isEqualTo("subscription");
        assertThat(lines.get(0).get("amount_cents").asLong()).isEqualTo(2000);
        JsonNode overage = lines.stream()
                .filter(line -> line.get("kind").asString().equals("storage_overage"))
                .findFirst()
                .orElseThrow();
        assertThat(overage.get("quantity").asLong()).isEqualTo(5);
        assertThat(overage.get("amount_cents").asLong()).isEqualTo(1000);
        assertThat(overage.get("description").asString()).isEqualTo("Storage overage: 5 × 10 GiB above 100 GiB");
        List<InvoiceItem> added = listener.added.stream().toList();
        assertThat(added).hasSize(1);
        assertThat(added.get(0).pending()).isFalse();
        assertThat(added.get(0).providerInvoiceItemId().value()).startsWith("ii_");
    }

    @Test
    void anItemForAnInvoiceNoLongerADraftGoesPendingOnceAndJoinsTheNextInvoice() {
        JsonNode first = invoices().get(0);
        ProviderInvoiceId paidInvoice =
                new ProviderInvoiceId(first.get("provider_invoice_id").asString());
        Instant start = Instant.parse(first.get("period_start").asString());
        Instant end = Instant.parse(first.get("period_end").asString());
        InvoiceItemRequest request =
                overage(customer, paidInvoice, account.organizationId(), start, end, "overage:" + paidInvoice);

        InvoiceItem item = items.addInvoiceItem(request);
        InvoiceItem again = items.addInvoiceItem(request);

        assertThat(item.pending()).isTrue();
        assertThat(item.providerInvoiceItemId().value()).startsWith("ii_");
        assertThat(again).isEqualTo(item);
        assertThat(lines(invoices().get(0))).hasSize(1);

        advance();

        awaitPaidRenewalWithTwoLines("the renewal carries the pending item");
        assertThat(invoices().get(0).get("amount_due_cents").asLong()).isEqualTo(3000);
        assertThat(lines(invoices().get(0)).stream()
                        .filter(line -> line.get("kind").asString().equals("storage_overage")))
                .hasSize(1);
    }

    @Test
    void theFinalInvoiceBillsTheItemOnAnInvoiceOfItsOwnOnceHoweverOftenItIsAsked() {
        Instant end = Instant.now();
        Instant start = end.minus(Duration.ofDays(30));
        String key = "overage-final:" + subscriptionId + ":" + start.getEpochSecond();
        InvoiceItemRequest item = overage(customer, null, account.organizationId(), start, end, key);

        String invoice = items.billFinalInvoice(customer, item).value();
        String again = items.billFinalInvoice(customer, item).value();

        assertThat(invoice).startsWith("in_");
        assertThat(again).isEqualTo(invoice);
        await("the final invoice is paid", () -> invoices().stream()
                .anyMatch(i -> i.get("provider_invoice_id").asString().equals(invoice)
                        && status(i).equals("paid")));
        JsonNode last = invoices().stream()
                .filter(i -> i.get("provider_invoice_id").asString().equals(invoice))
                .findFirst()
                .orElseThrow();
        assertThat(last.get("amount_due_cents").asLong()).isEqualTo(1000);
        assertThat(lines(last)).hasSize(1);
        assertThat(lines(last).get(0).get("kind").asString()).isEqualTo("storage_overage");
        assertThat(lines(last).get(0).get("quantity").asLong()).isEqualTo(5);
        assertThat(invoices()).hasSize(2);
    }

    /**
     * A final invoice advances by itself: the provider finalizes it once its {@code invoice.created} is answered
     * (Stripe within the hour). A charge whose first try made the item and the invoice but failed before the
     * finalization is sent again after that: it must find the invoice finalized, not fail for ever.
     */
    @Test
    void aFinalInvoiceTheProviderFinalizedBeforeTheChargeWasSentAgainIsBilledOnce() throws Exception {
        Instant end = Instant.now();
        Instant start = end.minus(Duration.ofDays(30));
        String key = "overage-final:" + subscriptionId + ":" + start.getEpochSecond();
        InvoiceItemRequest item = overage(customer, null, account.organizationId(), start, end, key);
        assertThat(gateway.createInvoiceItem(item)).isPresent();
        String made = gateway.createInvoiceOfPendingItems(customer, ProviderIdempotencyKeys.invoiceOfPending(key))
                .value();
        await("the provider finalizes the invoice by itself", () -> !"draft"
                .equals(stripeClient().v1().invoices().retrieve(made).getStatus()));

        String invoice = items.billFinalInvoice(customer, item).value();

        assertThat(invoice).isEqualTo(made);
        await("the final invoice is paid", () -> "paid"
                .equals(stripeClient().v1().invoices().retrieve(made).getStatus()));
        assertThat(stripeClient().v1().invoices().retrieve(made).getAmountDue()).isEqualTo(1000);
        InvoiceListParams ofTheCustomer =
                InvoiceListParams.builder().setCustomer(customer.value()).build();
        assertThat(stripeClient().v1().invoices().list(ofTheCustomer).getData())
                .as("the subscription's first invoice and the final one")
                .hasSize(2);
    }
}
