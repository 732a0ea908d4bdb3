package com.kvportal.sandbox.invoice;

import com.kvportal.sandbox.SandboxProperties;
import com.kvportal.sandbox.events.SandboxEvents;
import com.kvportal.sandbox.store.CardOutcome;
import com.kvportal.sandbox.store.SandboxDiscounts;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCoupon;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredDiscount;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredInvoiceItem;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.kvportal.sandbox.stripe.StripeViews;
import com.kvportal.sandbox.subscription.SubscriptionNews;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.StripeCollection;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * The sandbox's invoices and invoice items as Stripe runs them: a renewal is drafted with the customer's pending
 * items and {@code invoice.created}, then finalized and charged once that event was answered 2xx (or after the
 * grace); items join a draft as lines or wait, pending, for the next invoice; standalone invoices are made from
 * pending items and finalized on request.
 */
@Service
@RequiredArgsConstructor
public class StripeInvoices {

    /** Stripe's largest amount of one charge in USD: $999,999.99. */
    private static final long MAX_AMOUNT = 99_999_999;

    private final SandboxObjects objects;
    private final SandboxDiscounts discounts;
    private final StripeJson json;
    private final StripeViews views;
    private final SandboxEvents events;
    private final SubscriptionNews news;
    private final SandboxPayments payments;
    private final SandboxProperties properties;
    private final Clock clock;

    // the subscription's invoices (callers hold the customer's lock)

    /** The first invoice of a subscription: created, finalized and charged at once, as at Stripe. */
    public StoredInvoice issueNow(StoredInvoice draft, CardOutcome card) {
        return issueNow(draft, List.of(), card);
    }

    /**
     * An invoice of a subscription with further lines (a plan change's proration credit), created, finalized and
     * charged at once, as Stripe does with {@code proration_behavior=always_invoice}.
     */
    public StoredInvoice issueNow(StoredInvoice unpriced, List<StoredInvoiceItem> lines, CardOutcome card) {
        StoredInvoice draft = priced(unpriced, true);
        objects.insert(draft);
        StoredInvoice withLines = draft;
        for (StoredInvoiceItem line : lines) {
            objects.insert(line.on(draft.id()));
            withLines = withLines.withLineOf(line.amount());
        }
        if (withLines != draft) {
            objects.update(withLines);
        }
        events.emit("invoice.created", views.invoice(withLines));
        return finalizeAndCharge(withLines, card, true);
    }

    /**
     * The renewal draft of a subscription whose period just ended: its subscription line, the customer's pending
     * items as further lines, and {@code invoice.created}; it is finalized later (see {@link #finalizeDueDraft}).
     */
    public StoredInvoice draftRenewal(
            StoredSubscription subscription, StoredPrice price, long newPeriodStart, long newPeriodEnd) {
        long now = now();
        StoredInvoice draft = StoredInvoice.draft(
                StripeId.INVOICE.next(),
                subscription,
                "subscription_cycle",
                price,
                subscription.currentPeriodStart(),
                subscription.currentPeriodEnd(),
                newPeriodStart,
                newPeriodEnd,
                now,
                now + properties.draftGrace().toSeconds());
        StoredInvoice priced = priced(draft, true);
        objects.insert(priced);
        return announceDraft(withPendingItems(priced));
    }

    /** Finalizes and charges the customer's drafts that advance by themselves: time passes over their grace. */
    public void finalizeDrafts(StoredCustomer customer) {
        for (StoredInvoice draft : objects.lockAutoAdvancingDrafts(customer.id())) {
            finalizeAndCharge(draft, customer.card(), true);
        }
    }

    /**
     * Finalizes and charges a draft that is due (its {@code invoice.created} answered, or its grace over), unless
     * someone else finalized it meanwhile.
     */
    @Transactional
    void finalizeDueDraft(String invoiceId) {
        StoredInvoice unlocked = objects.invoice(invoiceId).orElseThrow();
        StoredCustomer customer = objects.lockCustomer(unlocked.customer()).orElseThrow();
        if (unlocked.subscription() != null) {
            objects.lockSubscription(unlocked.subscription());
        }
        StoredInvoice draft = objects.lockInvoice(invoiceId).orElseThrow();
        if (draft.isDraft() && draft.autoAdvance()) {
            finalizeAndCharge(draft, customer.card(), true);
        }
    }

    /** Charges an open invoice successfully, with Stripe's invoice.paid and invoice.payment_succeeded. */
    public StoredInvoice markPaid(StoredInvoice open) {
        StoredInvoice paid = open.paid(now());
        objects.update(paid);
        if (paid.amountPaid() > 0) {
            payments.insert(new SandboxPayments.StoredInvoicePayment(
                    StripeId.INVOICE_PAYMENT.next(),
                    paid.id(),
                    StripeId.PAYMENT_INTENT.next(),
                    StripeId.CHARGE.next(),
                    paid.amountPaid(),
                    "usd",
                    now()));
        }
        Invoice after = views.invoice(paid);
        events.emit("invoice.paid", after);
        events.emit("invoice.payment_succeeded", after);
        return paid;
    }

    // the API

    public Invoice retrieve(String id) {
        return objects.invoice(id).map(views::invoice).orElseThrow(() -> StripeError.noSuch("invoice", id, "id"));
    }

    /** A page of invoices, newest first. */
    public StripeCollection<Invoice> list(
            @Nullable String customer, @Nullable String subscription, @Nullable String status, int limit) {
        return StripeJson.page(
                objects.invoices(customer, subscription, status, limit + 1), limit, views::invoice, "/v1/invoices");
    }

    public InvoiceItem retrieveItem(String id) {
        return objects.invoiceItem(id)
                .map(json::invoiceItem)
                .orElseThrow(() -> StripeError.noSuch("invoiceitem", id, "id"));
    }

    /** {@code POST /v1/invoiceitems}. */
    @Transactional
    public InvoiceItem createInvoiceItem(StripeParams params) {
        params.allowOnly(
                Set.of(
                        "customer",
                        "invoice",
                        "quantity",
                        "unit_amount_decimal",
                        "amount",
                        "currency",
                        "description",
                        "period",
                        "metadata"),
                Set.of("discountable", "tax_behavior", "tax_code", "tax_rates", "discounts"));
        String customerId = lockedCustomer(params);
        long now = now();
        String currency = currency(params);
        String description = params.shortText("description");
        Map<String, String> metadata = StripeParams.merged(Map.of(), params.metadata("metadata"));
        Pricing pricing = pricing(params);
        Period period = period(params, now);
        StoredInvoiceItem item = new StoredInvoiceItem(
                StripeId.INVOICE_ITEM.next(),
                customerId,
                null,
                StripeId.INVOICE_LINE.next(),
                pricing.quantity(),
                pricing.unitAmountDecimal(),
                pricing.amount(),
                currency,
                description,
                period.start(),
                period.end(),
                metadata,
                now,
                false);
        String invoiceId = params.text("invoice");
        if (invoiceId != null) {
            StoredInvoice invoice = objects.lockInvoice(invoiceId)
                    .orElseThrow(() -> StripeError.noSuchParam("invoice", invoiceId, "invoice"));
            if (!invoice.customer().equals(customerId)) {
                throw StripeError.invalid(
                        "invoice", "The invoice " + invoiceId + " does not belong to the customer " + customerId + ".");
            }
            if (!invoice.isDraft()) {
                throw StripeError.notEditable(invoiceId);
            }
            item = item.on(invoiceId);
            objects.insert(item);
            objects.update(invoice.withLineOf(item.amount()));
        } else {
            objects.insert(item);
        }
        InvoiceItem created = json.invoiceItem(item);
        events.emit("invoiceitem.created", created);
        return created;
    }

    /** {@code GET /v1/invoiceitems}: a page of items, newest first ({@code customer}, {@code starting_after}). */
    public StripeCollection<InvoiceItem> listItems(
            @Nullable String customer, @Nullable String startingAfter, int limit) {
        return StripeJson.page(
                objects.invoiceItems(customer, startingAfter, limit + 1), limit, json::invoiceItem, "/v1/invoiceitems");
    }

    /**
     * {@code DELETE /v1/invoiceitems/{id}}: as at Stripe, only a pending item or a line of a draft invoice can be
     * deleted (the draft's amount drops by it); {@code invoiceitem.deleted}.
     */
    @Transactional
    public void deleteItem(String id) {
        StoredInvoiceItem unlocked =
                objects.invoiceItem(id).orElseThrow(() -> StripeError.noSuch("invoiceitem", id, "id"));
        objects.lockCustomer(unlocked.customer()).orElseThrow();
        StoredInvoiceItem item = objects.invoiceItem(id).orElseThrow(() -> StripeError.noSuch("invoiceitem", id, "id"));
        if (item.invoice() != null) {
            StoredInvoice invoice = objects.lockInvoice(item.invoice()).orElseThrow();
            if (!invoice.isDraft()) {
                throw StripeError.notDeletable(id, invoice.id());
            }
            objects.update(invoice.withLineOf(-item.amount()));
        }
        objects.deleteInvoiceItem(id);
        InvoiceItem deleted = json.invoiceItem(item);
        deleted.setDeleted(true);
        events.emit("invoiceitem.deleted", deleted);
    }

    /** {@code POST /v1/invoices}: a standalone draft, with the customer's pending items when asked. */
    @Transactional
    public Invoice createInvoice(StripeParams params) {
        params.allowOnly(
                Set.of(
                        "customer",
                        "pending_invoice_items_behavior",
                        "auto_advance",
                        "collection_method",
                        "description",
                        "metadata",
                        "automatic_tax"),
                Set.of("default_tax_rates", "footer", "custom_fields", "rendering", "statement_descriptor"));
        String customerId = lockedCustomer(params);
        String behavior = params.text("pending_invoice_items_behavior");
        if (behavior != null && !behavior.equals("include") && !behavior.equals("exclude")) {
            throw StripeError.invalid(
                    "pending_invoice_items_behavior", "pending_invoice_items_behavior must be include or exclude.");
        }
        String collection = params.text("collection_method");
        if (collection != null && !collection.equals("charge_automatically")) {
            throw StripeError.invalid(
                    "collection_method", "The sandbox supports collection_method=charge_automatically only.");
        }
        Boolean autoAdvance = params.bool("auto_advance");
        boolean advances = Boolean.TRUE.equals(autoAdvance);
        long now = now();
        StoredInvoice draft = StoredInvoice.standalone(
                StripeId.INVOICE.next(),
                customerId,
                advances,
                advances ? now + properties.draftGrace().toSeconds() : null,
                now);
        if (Boolean.TRUE.equals(params.bool("automatic_tax[enabled]"))) {
            draft = taxed(draft);
        }
        objects.insert(draft);
        if ("include".equals(behavior)) {
            draft = withPendingItems(draft);
        }
        return views.invoice(announceDraft(draft));
    }

    /** {@code POST /v1/invoices/{id}/finalize}: open and numbered; charged at once when it advances by itself. */
    @Transactional
    public Invoice finalizeInvoice(String id, StripeParams params) {
        params.allowOnly(Set.of("auto_advance"), Set.of());
        StoredInvoice unlocked = objects.invoice(id).orElseThrow(() -> StripeError.noSuch("invoice", id, "id"));
        StoredCustomer customer = objects.lockCustomer(unlocked.customer()).orElseThrow();
        if (unlocked.subscription() != null) {
            objects.lockSubscription(unlocked.subscription());
        }
        StoredInvoice invoice = objects.lockInvoice(id).orElseThrow();
        if (!invoice.isDraft()) {
            throw StripeError.state(
                    "invoice_already_finalized",
                    "This invoice is already finalized, you can't re-finalize a non-draft invoice.");
        }
        Boolean autoAdvance = params.bool("auto_advance");
        boolean charge = autoAdvance == null ? invoice.autoAdvance() : autoAdvance;
        return views.invoice(finalizeAndCharge(invoice, customer.card(), charge));
    }

    // shared steps

    /**
     * A subscription's new invoice with its discount and tax, as Stripe prices it when it is made: the
     * subscription's discount that applies at the start of the service period the invoice charges for (a
     * {@code once} discount then ends when {@code consume}), and, when the subscription's tax is automatic, the rate
     * of the customer's country.
     */
    public StoredInvoice priced(StoredInvoice draft, boolean consume) {
        if (draft.subscription() == null) {
            return draft;
        }
        StoredInvoice priced = draft;
        long at = draft.linePeriodStart();
        // the sandbox gives a subscription one discount at most (one per checkout session)
        Optional<StoredDiscount> discount =
                discounts.ofSubscription(draft.subscription(), at).stream().findFirst();
        if (discount.isPresent()) {
            StoredCoupon coupon = discounts.coupon(discount.get().coupon()).orElseThrow();
            priced = priced.withDiscount(discount.get().id(), coupon.percentOff(), coupon.amountOff());
            if (consume && coupon.once()) {
                discounts.end(discount.get().id(), at);
            }
        }
        return objects.automaticTax(draft.subscription()) ? taxed(priced) : priced;
    }

    /** The draft taxed at the rate of its customer's country (none known: no tax). */
    private StoredInvoice taxed(StoredInvoice draft) {
        String country =
                objects.customer(draft.customer()).map(StoredCustomer::country).orElse(null);
        return country == null ? draft : draft.withTax(country, SandboxTaxRates.percent(country));
    }

    /** The draft with the customer's pending items moved onto it as lines. */
    private StoredInvoice withPendingItems(StoredInvoice draft) {
        StoredInvoice withItems = draft;
        for (StoredInvoiceItem item : objects.attachPendingItems(draft.customer(), draft.id())) {
            withItems = withItems.withLineOf(item.amount());
        }
        return withItems;
    }

    /** Records {@code invoice.created} and remembers its id: its answer decides when a renewal is finalized. */
    private StoredInvoice announceDraft(StoredInvoice draft) {
        String eventId = events.emit("invoice.created", views.invoice(draft));
        StoredInvoice announced = draft.withCreatedEvent(eventId);
        objects.update(announced);
        return announced;
    }

    /**
     * Finalizes a draft (invoice.finalized) and, when {@code charge}, charges it to the card: invoice.paid and
     * invoice.payment_succeeded, or invoice.payment_failed (it stays open). A subscription's status follows: past
     * due while one of its invoices is open, active once none is. A zero invoice is paid at once.
     */
    private StoredInvoice finalizeAndCharge(StoredInvoice draft, CardOutcome card, boolean charge) {
        StoredInvoice open = draft.finalized(now(), objects.nextInvoiceNumber(draft.customer()), charge);
        objects.update(open);
        events.emit("invoice.finalized", views.invoice(open));
        StoredInvoice result;
        if (open.amountDue() == 0) {
            result = open.paidWithoutCharge(now());
            objects.update(result);
            Invoice after = views.invoice(result);
            events.emit("invoice.paid", after);
            events.emit("invoice.payment_succeeded", after);
        } else if (!charge) {
            return open;
        } else if (card == CardOutcome.SUCCEEDED) {
            result = markPaid(open);
        } else {
            result = open.paymentFailed();
            objects.update(result);
            events.emit("invoice.payment_failed", views.invoice(result));
        }
        settleSubscription(result);
        return result;
    }

    /**
     * After a charge of a subscription's invoice: as at Stripe, its status follows its latest invoice, past due while
     * that one is open, active once it is paid (a renewal a coupon takes to $0 is paid without a charge, so
     * the subscription is active again though an older invoice may still be open).
     */
    private void settleSubscription(StoredInvoice charged) {
        if (charged.subscription() == null) {
            return;
        }
        StoredSubscription subscription =
                objects.lockSubscription(charged.subscription()).orElseThrow();
        if (subscription.hasEnded()) {
            return;
        }
        String latest = subscription.latestInvoice() == null ? charged.id() : subscription.latestInvoice();
        boolean owing = (latest.equals(charged.id()) ? Optional.of(charged) : objects.invoice(latest))
                .map(invoice -> invoice.status().equals("open"))
                .orElse(false);
        String status = owing ? "past_due" : "active";
        if (!subscription.status().equals(status)
                && (subscription.status().equals("active")
                        || subscription.status().equals("past_due"))) {
            news.saveAndAnnounce(subscription, subscription.withStatus(status));
        }
    }

    private static String currency(StripeParams params) {
        String currency = params.text("currency");
        if (currency == null) {
            return "usd";
        }
        if (!currency.equals("usd")) {
            throw StripeError.invalid("currency", "The sandbox's prices are in usd: currency must be usd.");
        }
        return currency;
    }

    /** An item's quantity, unit amount and amount ({@code unitAmountDecimal} × {@code quantity}, rounded). */
    private record Pricing(long quantity, BigDecimal unitAmountDecimal, long amount) {}

    /** The item's pricing: {@code unit_amount_decimal} × {@code quantity}, or {@code amount}. */
    private static Pricing pricing(StripeParams params) {
        Long quantityParam = params.integer("quantity");
        long quantity = quantityParam == null ? 1 : quantityParam;
        if (quantity < 0 || quantity > 1_000_000_000L) {
            throw StripeError.invalid("quantity", "quantity must be between 0 and 1000000000.");
        }
        BigDecimal unit = params.decimal("unit_amount_decimal");
        Long amount = params.integer("amount");
        if (unit != null && amount != null) {
            throw StripeError.onlyOneOf("amount", "amount", "unit_amount_decimal");
        }
        if (unit == null && amount == null) {
            throw StripeError.missing("unit_amount_decimal");
        }
        if (amount != null) {
            if (quantityParam != null && quantity != 1) {
                throw StripeError.invalid("quantity", "quantity cannot be given with amount; use unit_amount_decimal.");
            }
            if (amount < 0) {
                throw StripeError.invalid("amount", "amount must be at least 0.");
            }
            unit = BigDecimal.valueOf(amount);
            quantity = 1;
        }
        BigDecimal total = unit.multiply(BigDecimal.valueOf(quantity)).setScale(0, RoundingMode.HALF_UP);
        if (total.compareTo(BigDecimal.valueOf(MAX_AMOUNT)) > 0) {
            throw StripeError.amountTooLarge(MAX_AMOUNT);
        }
        return new Pricing(quantity, unit, total.longValueExact());
    }

    private record Period(long start, long end) {}

    /** The service period of the item: {@code period[start]} and {@code period[end]}, or its creation instant. */
    private static Period period(StripeParams params, long created) {
        if (!params.has("period[start]") && !params.has("period[end]")) {
            return new Period(created, created);
        }
        Long start = params.integer("period[start]");
        Long end = params.integer("period[end]");
        if (start == null) {
            throw StripeError.missing("period[start]");
        }
        if (end == null) {
            throw StripeError.missing("period[end]");
        }
        if (end < start) {
            throw StripeError.invalid("period[end]", "period[end] must be on or after period[start].");
        }
        return new Period(start, end);
    }

    private long now() {
        return clock.instant().getEpochSecond();
    }

    /** The id in the required {@code customer} parameter, its customer locked until commit. */
    private String lockedCustomer(StripeParams params) {
        String customerId = params.required("customer");
        objects.lockCustomer(customerId).orElseThrow(() -> StripeError.noSuchParam("customer", customerId, "customer"));
        return customerId;
    }
}
