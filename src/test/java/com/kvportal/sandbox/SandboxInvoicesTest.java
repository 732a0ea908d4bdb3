package com.kvportal.sandbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.kvportal.support.StripeEventLog;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.Event;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.InvoiceLineItem;
import com.stripe.model.StripeCollection;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.EventListParams;
import com.stripe.param.InvoiceCreateParams;
import com.stripe.param.InvoiceFinalizeInvoiceParams;
import com.stripe.param.InvoiceItemCreateParams;
import com.stripe.param.InvoiceItemListParams;
import java.math.BigDecimal;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Invoice items, standalone invoices and the event log through stripe-java, against the sandbox with
 * the billing webhook answering its events.
 */
class SandboxInvoicesTest extends SandboxTest {

    private static final String ITEMS = "/v1/invoiceitems";

    private static final long PERIOD_START = 1_767_225_600L;
    private static final long PERIOD_END = 1_769_904_000L;

    /** A new invoice of the customer, made through stripe-java with the parameters {@code shape} sets. */
    private Invoice newInvoice(String customer, UnaryOperator<InvoiceCreateParams.Builder> shape)
            throws StripeException {
        return stripeClient()
                .v1()
                .invoices()
                .create(shape.apply(InvoiceCreateParams.builder().setCustomer(customer))
                        .build());
    }

    /** A new invoice of the customer that takes up the customer's pending invoice items. */
    private Invoice invoiceOfPendingItems(String customer) throws StripeException {
        return newInvoice(
                customer,
                i -> i.setPendingInvoiceItemsBehavior(InvoiceCreateParams.PendingInvoiceItemsBehavior.INCLUDE));
    }

    /** A new empty draft of the customer that does not advance by itself. */
    private Invoice manualDraft(String customer) throws StripeException {
        return newInvoice(customer, i -> i.setAutoAdvance(false));
    }

    private Invoice finalizeDraft(String invoiceId, boolean autoAdvance) throws StripeException {
        return stripeClient()
                .v1()
                .invoices()
                .finalizeInvoice(
                        invoiceId,
                        InvoiceFinalizeInvoiceParams.builder()
                                .setAutoAdvance(autoAdvance)
                                .build());
    }

    @Test
    void shouldKeepAnItemWithoutInvoicePendingAndPutItOnTheCustomersNextRenewal() throws StripeException {
        Session session = openCheckout("pending-renewal@example.com");
        String subscriptionId = payAndSubscribe(session);

        InvoiceItem pending = stripeClient().v1().invoiceItems().create(overage(session.getCustomer(), null, 5));

        assertThat(pending.getId()).startsWith("ii_");
        assertThat(pending.getObject()).isEqualTo("invoiceitem");
        assertThat(pending.getInvoice()).isNull();
        assertThat(pending.getAmount()).isEqualTo(1000L);
        assertThat(pending.getQuantity()).isEqualTo(5L);
        assertThat(pending.getCurrency()).isEqualTo("usd");
        assertThat(pending.getMetadata()).containsEntry("kind", "storage_overage");
        assertThat(pending.getPeriod().getStart()).isEqualTo(PERIOD_START);
        assertThat(pending.getPeriod().getEnd()).isEqualTo(PERIOD_END);
        assertThat(stripeClient().v1().invoiceItems().retrieve(pending.getId()).getAmount())
                .isEqualTo(1000L);

        String invoiceId = advance(subscriptionId).json().get("latest_invoice").asString();

        Invoice draft = StripeEventLog.invoice(StripeEventLog.invoiceCreated(stripeClient(), invoiceId));
        assertThat(draft.getStatus()).isEqualTo("draft");
        assertThat(draft.getBillingReason()).isEqualTo("subscription_cycle");
        assertThat(draft.getAmountDue()).isEqualTo(3000L);
        assertThat(draft.getLines().getData()).hasSize(2);
        InvoiceLineItem overage = draft.getLines().getData().get(1);
        assertThat(overage.getDescription()).isEqualTo("Storage overage: 5 × 10 GiB");
        assertThat(overage.getQuantity()).isEqualTo(5L);
        assertThat(overage.getAmount()).isEqualTo(1000L);
        assertThat(overage.getMetadata()).containsEntry("kind", "storage_overage");
        assertThat(overage.getPeriod().getStart()).isEqualTo(PERIOD_START);
        assertThat(overage.getParent().getInvoiceItemDetails().getInvoiceItem()).isEqualTo(pending.getId());
        assertThat(draft.getLines().getData().get(0).getParent().getSubscriptionItemDetails())
                .isNotNull();

        Invoice paid = awaitInvoice(invoiceId, "paid");
        assertThat(paid.getAmountPaid()).isEqualTo(3000L);
        assertThat(stripeClient().v1().invoiceItems().retrieve(pending.getId()).getInvoice())
                .isEqualTo(invoiceId);
    }

    @Test
    void shouldMakeAStandaloneInvoiceFromPendingItemsAndChargeItWhenFinalized() throws StripeException {
        String customer = newCustomer("standalone@example.com");
        stripeClient().v1().invoiceItems().create(overage(customer, null, 3));
        stripeClient().v1().invoiceItems().create(overage(customer, null, 1));

        Invoice draft = newInvoice(
                customer, i -> i.setPendingInvoiceItemsBehavior(InvoiceCreateParams.PendingInvoiceItemsBehavior.INCLUDE)
                        // not auto_advance: the draft finalizer would finalize it once its invoice.created is
                        // answered, racing the explicit finalize below
                        .setAutoAdvance(false));

        assertThat(draft.getId()).startsWith("in_");
        assertThat(draft.getStatus()).isEqualTo("draft");
        assertThat(draft.getBillingReason()).isEqualTo("manual");
        assertThat(draft.getAutoAdvance()).isFalse();
        assertThat(draft.getParent()).isNull();
        assertThat(draft.getAmountDue()).isEqualTo(800L);
        assertThat(draft.getLines().getData())
                .extracting(InvoiceLineItem::getQuantity)
                .containsExactly(3L, 1L);

        Invoice finalized = finalizeDraft(draft.getId(), true);

        assertThat(finalized.getStatus()).isEqualTo("paid");
        assertThat(finalized.getNumber()).isNotNull();
        assertThat(finalized.getAmountPaid()).isEqualTo(800L);
        assertThat(eventTypesAbout(draft.getId()))
                .containsExactly("invoice.created", "invoice.finalized", "invoice.paid", "invoice.payment_succeeded");
        // nothing is pending any more: a second invoice is empty
        Invoice empty = invoiceOfPendingItems(customer);
        assertThat(empty.getLines().getData()).isEmpty();
        assertThat(empty.getAmountDue()).isZero();
    }

    @Test
    void shouldAddAnItemToADraftAsALineAndRefuseItOnceTheInvoiceIsFinalized() throws StripeException {
        String customer = newCustomer("draft-lines@example.com");
        Invoice draft = manualDraft(customer);
        assertThat(draft.getAutoAdvance()).isFalse();

        InvoiceItem line = stripeClient().v1().invoiceItems().create(overage(customer, draft.getId(), 2));

        assertThat(line.getInvoice()).isEqualTo(draft.getId());
        Invoice withLine = stripeClient().v1().invoices().retrieve(draft.getId());
        assertThat(withLine.getAmountDue()).isEqualTo(400L);
        assertThat(withLine.getLines().getData()).hasSize(1);

        // without auto_advance, finalizing opens the invoice and charges nothing
        Invoice open = finalizeDraft(draft.getId(), false);
        assertThat(open.getStatus()).isEqualTo("open");
        assertThat(open.getAmountPaid()).isZero();

        assertThatThrownBy(() -> stripeClient().v1().invoiceItems().create(overage(customer, draft.getId(), 1)))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getStripeError().getType()).isEqualTo("invalid_request_error");
                    assertThat(e.getCode()).isEqualTo("invoice_not_editable");
                });
        assertThatThrownBy(() -> stripeClient().v1().invoices().finalizeInvoice(draft.getId()))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getCode()).isEqualTo("invoice_already_finalized");
                });
        assertThat(stripeClient().v1().invoices().retrieve(draft.getId()).getAmountDue())
                .isEqualTo(400L);
    }

    @Test
    void shouldDeletePendingItemsAndLinesOfDraftsOnlyAndListTheRestNewestFirst() throws StripeException {
        String customer = newCustomer("delete-items@example.com");
        InvoiceItem pending = stripeClient().v1().invoiceItems().create(overage(customer, null, 1));
        Invoice draft = manualDraft(customer);
        InvoiceItem line = stripeClient().v1().invoiceItems().create(overage(customer, draft.getId(), 2));
        InvoiceItem kept = stripeClient().v1().invoiceItems().create(overage(customer, draft.getId(), 3));
        assertThat(stripeClient().v1().invoices().retrieve(draft.getId()).getAmountDue())
                .isEqualTo(1000L);

        // a pending item, and a line of a draft (whose amount drops by it)
        assertThat(stripeClient().v1().invoiceItems().delete(pending.getId()).getDeleted())
                .isTrue();
        InvoiceItem deleted = stripeClient().v1().invoiceItems().delete(line.getId());
        assertThat(deleted.getId()).isEqualTo(line.getId());
        assertThat(deleted.getDeleted()).isTrue();
        Invoice after = stripeClient().v1().invoices().retrieve(draft.getId());
        assertThat(after.getAmountDue()).isEqualTo(600L);
        assertThat(after.getLines().getData()).singleElement().satisfies(l -> assertThat(l.getQuantity())
                .isEqualTo(3L));
        assertThat(stripeClient()
                        .v1()
                        .invoiceItems()
                        .list(InvoiceItemListParams.builder()
                                .setCustomer(customer)
                                .build())
                        .getData())
                .extracting(InvoiceItem::getId)
                .containsExactly(kept.getId());
        assertThatThrownBy(() -> stripeClient().v1().invoiceItems().retrieve(line.getId()))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));

        finalizeDraft(draft.getId(), false);
        assertThatThrownBy(() -> stripeClient().v1().invoiceItems().delete(kept.getId()))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> {
                    assertThat(e.getStatusCode()).isEqualTo(400);
                    assertThat(e.getStripeError().getType()).isEqualTo("invalid_request_error");
                    assertThat(e.getCode()).isEqualTo("invoice_not_editable");
                });
        assertThat(stripeClient().v1().invoices().retrieve(draft.getId()).getAmountDue())
                .isEqualTo(600L);
        assertThatThrownBy(() -> stripeClient().v1().invoiceItems().delete("ii_doesnotexist"))
                .isInstanceOfSatisfying(InvalidRequestException.class, e -> assertThat(e.getStatusCode())
                        .isEqualTo(404));
    }

    @Test
    void shouldListEveryItemPageByPage() throws StripeException {
        String customer = newCustomer("list-items@example.com");
        for (int i = 1; i <= 3; i++) {
            stripeClient().v1().invoiceItems().create(overage(customer, null, i));
        }
        List<Long> quantities = new java.util.ArrayList<>();
        stripeClient()
                .v1()
                .invoiceItems()
                .list(InvoiceItemListParams.builder()
                        .setCustomer(customer)
                        .setLimit(2L)
                        .build())
                .autoPagingIterable()
                .forEach(item -> quantities.add(item.getQuantity()));
        assertThat(quantities).containsExactly(3L, 2L, 1L);
    }

    @Test
    void shouldCreateAnItemOncePerIdempotencyKey() throws StripeException {
        String customer = newCustomer("idempotent-item@example.com");
        RequestOptions key = RequestOptions.builder()
                .setIdempotencyKey("overage:" + customer)
                .build();

        InvoiceItem first = stripeClient().v1().invoiceItems().create(overage(customer, null, 4), key);
        InvoiceItem again = stripeClient().v1().invoiceItems().create(overage(customer, null, 4), key);

        assertThat(again.getId()).isEqualTo(first.getId());
        Invoice invoice = invoiceOfPendingItems(customer);
        assertThat(invoice.getLines().getData()).hasSize(1);
        assertThat(invoice.getAmountDue()).isEqualTo(800L);
    }

    @Test
    void shouldRefuseBadInvoiceItemsWithStripesCodesAndCreateNothing() throws StripeException {
        String customer = newCustomer("bad-items@example.com");
        String other = newCustomer("other-items@example.com");
        String othersDraft = newInvoice(other, i -> i).getId();

        String withCustomer = "customer=" + customer + "&";
        assertRefused(ITEMS, "unit_amount_decimal=200", "parameter_missing");
        assertStripeError(
                stripeApi("POST", "/v1/invoiceitems", "customer=cus_nope&unit_amount_decimal=200"),
                400,
                "resource_missing");
        assertRefused(ITEMS, withCustomer + "invoice=in_nope&amount=5", "resource_missing");
        assertRefused(ITEMS, withCustomer + "invoice=" + othersDraft + "&amount=5", "parameter_invalid");
        assertRefused(ITEMS, "customer=" + customer, "parameter_missing");
        assertRefused(ITEMS, withCustomer + "unit_amount_decimal=-1", "parameter_invalid");
        assertRefused(ITEMS, withCustomer + "unit_amount_decimal=abc", "parameter_invalid");
        assertRefused(ITEMS, withCustomer + "amount=1&unit_amount_decimal=1", "parameter_invalid");
        assertRefused(ITEMS, withCustomer + "unit_amount_decimal=200&quantity=-1", "parameter_invalid");
        assertRefused(ITEMS, withCustomer + "unit_amount_decimal=200&quantity=1000000000", "amount_too_large");
        assertRefused(ITEMS, withCustomer + "unit_amount_decimal=200&currency=eur", "parameter_invalid");
        assertRefused(
                ITEMS, withCustomer + "unit_amount_decimal=200&period[start]=10&period[end]=5", "parameter_invalid");
        assertRefused(ITEMS, withCustomer + "amount=5&price=price_x", "parameter_unknown");
        assertThat(count("select count(*) from sandbox.sandbox_invoice_items where customer = ?", customer))
                .isZero();
    }

    @Test
    void shouldRefuseBadInvoicesAndUnknownInvoicesToFinalize() throws StripeException {
        String customer = newCustomer("bad-invoices@example.com");

        assertRefused("/v1/invoices", "", "parameter_missing");
        assertRefused("/v1/invoices", "customer=cus_nope", "resource_missing");
        assertRefused(
                "/v1/invoices", "customer=" + customer + "&pending_invoice_items_behavior=all", "parameter_invalid");
        assertRefused("/v1/invoices", "customer=" + customer + "&auto_advance=maybe", "parameter_invalid");
        Reply unknown = stripeApi("POST", "/v1/invoices/in_nope/finalize", "");
        assertStripeError(unknown, 404, "resource_missing");
        assertThat(stripeApi("GET", "/v1/invoices/in_nope/finalize", null).status())
                .isEqualTo(404);
    }

    @Test
    void shouldServeEveryEventNewestFirstWithTheBodyThatWasDelivered() throws StripeException {
        String customer = newCustomer("events@example.com");
        stripeClient().v1().invoiceItems().create(overage(customer, null, 1));

        StripeCollection<Event> newest = stripeClient()
                .v1()
                .events()
                .list(EventListParams.builder().setLimit(2L).build());
        assertThat(newest.getData()).hasSize(2);
        assertThat(newest.getHasMore()).isTrue();
        assertThat(newest.getData().get(0).getCreated())
                .isGreaterThanOrEqualTo(newest.getData().get(1).getCreated());

        List<Event> created = stripeClient()
                .v1()
                .events()
                .list(EventListParams.builder()
                        .setType("customer.created")
                        .setLimit(100L)
                        .build())
                .getData();
        assertThat(created).extracting(Event::getType).containsOnly("customer.created");
        Event ours = created.stream()
                .filter(e -> e.getDataObjectDeserializer().getRawJson().contains(customer))
                .findFirst()
                .orElseThrow();
        assertThat(stripeClient().v1().events().retrieve(ours.getId()).getId()).isEqualTo(ours.getId());
        List<Event> items = stripeClient()
                .v1()
                .events()
                .list(EventListParams.builder().setType("invoiceitem.*").build())
                .getData();
        assertThat(items)
                .extracting(Event::getType)
                .contains("invoiceitem.created")
                .allSatisfy(type -> assertThat(type).isIn("invoiceitem.created", "invoiceitem.deleted"));

        String delivered = jdbc.sql("select payload from sandbox.sandbox_events where id = ?")
                .param(ours.getId())
                .query(String.class)
                .single();
        Reply raw = stripeApi("GET", "/v1/events/" + ours.getId(), null);
        assertThat(raw.status()).isEqualTo(200);
        assertThat(raw.body()).isEqualTo(delivered);
        assertThat(stripeApi("GET", "/v1/events?limit=100&type=customer.created", null)
                        .body())
                .contains(delivered);
        Reply missing = stripeApi("GET", "/v1/events/evt_nope", null);
        assertStripeError(missing, 404, "resource_missing");
        assertThat(stripeApi("GET", "/v1/events?limit=0", null).errorCode()).isEqualTo("parameter_invalid");
    }

    private static InvoiceItemCreateParams overage(String customer, String invoice, long units) {
        InvoiceItemCreateParams.Builder params = overageItem(customer, units, new BigDecimal("200"))
                .setDescription("Storage overage: " + units + " × 10 GiB")
                .setPeriod(InvoiceItemCreateParams.Period.builder()
                        .setStart(PERIOD_START)
                        .setEnd(PERIOD_END)
                        .build());
        if (invoice != null) {
            params.setInvoice(invoice);
        }
        return params.build();
    }
}
