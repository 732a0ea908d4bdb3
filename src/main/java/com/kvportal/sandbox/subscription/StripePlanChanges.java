package com.kvportal.sandbox.subscription;

import com.kvportal.sandbox.invoice.StripeInvoices;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredInvoiceItem;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSubscription;
import com.kvportal.sandbox.stripe.StripeError;
import com.kvportal.sandbox.stripe.StripeId;
import com.kvportal.sandbox.stripe.StripeJson;
import com.kvportal.sandbox.stripe.StripeParams;
import com.stripe.model.Invoice;
import com.stripe.model.Subscription;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import lombok.RequiredArgsConstructor;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * A subscription moved to another price as Stripe moves it with {@code items[0][price]},
 * {@code billing_cycle_anchor=now} and {@code proration_behavior=always_invoice}: a new period starts at once, and one
 * invoice ({@code billing_reason=subscription_update}) bills the new price's whole period less the unused time of the
 * old one, finalized and charged at once. {@code POST /v1/invoices/create_preview} answers that invoice without making
 * it.
 */
@Service
@RequiredArgsConstructor
public class StripePlanChanges {

    /** The item parameters of a change, under {@code items[0]} (update) or {@code subscription_details[items][0]}. */
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH);

    private final SandboxObjects objects;
    private final StripeInvoices invoices;
    private final SubscriptionNews news;
    private final StripeJson json;
    private final Clock clock;

    /** What a change bills: the new period, the new price's line and the credit of the old price's unused time. */
    private record Change(
            StoredSubscription subscription, StoredPrice from, StoredPrice to, long now, long periodEnd, long credit) {

        StoredInvoice invoice(String id, StoredSubscription changed) {
            return StoredInvoice.draft(id, changed, "subscription_update", to, now, now, now, periodEnd, now, null);
        }

        StoredInvoiceItem creditLine(String invoiceId) {
            return new StoredInvoiceItem(
                    StripeId.INVOICE_ITEM.next(),
                    subscription.customer(),
                    invoiceId,
                    StripeId.INVOICE_LINE.next(),
                    1,
                    BigDecimal.valueOf(-credit),
                    -credit,
                    to.currency(),
                    "Unused time on " + from.nickname() + " after "
                            + DAY.format(Instant.ofEpochSecond(now).atZone(ZoneOffset.UTC)),
                    now,
                    subscription.currentPeriodEnd(),
                    Map.of(),
                    now,
                    true);
        }
    }

    /** True when an update of a subscription names a new price: a plan change. */
    static boolean isChange(StripeParams params) {
        return params.has("items[0][price]");
    }

    /** {@code POST /v1/subscriptions/{id}} with {@code items[0][price]}: the change, made and invoiced at once. */
    @Transactional
    public Subscription change(String id, StripeParams params) {
        params.allowOnly(
                Set.of("items", "billing_cycle_anchor", "proration_behavior", "metadata", "trial_end"),
                Set.of("description", "payment_behavior"));
        String customerId = objects.subscription(id)
                .orElseThrow(() -> StripeError.noSuch("subscription", id, "id"))
                .customer();
        StoredCustomer customer = objects.lockCustomer(customerId).orElseThrow();
        StoredSubscription subscription = objects.lockSubscription(id).orElseThrow();
        if (params.has("trial_end")) {
            return changeInTrial(subscription, params);
        }
        Change change = change(subscription, params, "items[0]", "");
        String invoiceId = StripeId.INVOICE.next();
        StoredSubscription changed = subscription
                .changedTo(change.to().id(), change.now(), change.periodEnd(), invoiceId)
                .withMetadata(StripeParams.merged(subscription.metadata(), params.metadata("metadata")));
        news.saveAndAnnounce(subscription, changed);
        List<StoredInvoiceItem> credit = change.credit() > 0 ? List.of(change.creditLine(invoiceId)) : List.of();
        invoices.issueNow(change.invoice(invoiceId, changed), credit, customer.card());
        return retrieveFresh(id);
    }

    /**
     * A change of a trialing subscription that keeps its trial's end ({@code trial_end} as it is): the new price from
     * now within the trial, its period unchanged and nothing invoiced (the trial's end bills the new price).
     */
    private Subscription changeInTrial(StoredSubscription subscription, StripeParams params) {
        Long trialEnd = params.integer("trial_end");
        if (!subscription.isTrialing() || trialEnd == null || !trialEnd.equals(subscription.trialEnd())) {
            throw StripeError.invalid(
                    "trial_end",
                    "The sandbox takes trial_end on a trialing subscription only, to keep its trial's end.");
        }
        String itemId = params.text("items[0][id]");
        if (itemId != null && !itemId.equals(subscription.itemId())) {
            throw StripeError.invalid("items[0][id]", "Invalid subscription item: " + itemId);
        }
        String priceId = params.required("items[0][price]");
        StoredPrice to =
                objects.price(priceId).orElseThrow(() -> StripeError.noSuchParam("price", priceId, "items[0][price]"));
        StoredSubscription changed = subscription
                .withPrice(to.id())
                .withMetadata(StripeParams.merged(subscription.metadata(), params.metadata("metadata")));
        news.saveAndAnnounce(subscription, changed);
        return retrieveFresh(subscription.id());
    }

    /** {@code POST /v1/invoices/create_preview}: the invoice a change would make now, made of nothing stored. */
    @Transactional(readOnly = true)
    public Invoice preview(StripeParams params) {
        params.allowOnly(Set.of("customer", "subscription", "subscription_details"), Set.of("automatic_tax"));
        String id = params.required("subscription");
        StoredSubscription subscription =
                objects.subscription(id).orElseThrow(() -> StripeError.noSuchParam("subscription", id, "subscription"));
        String customer = params.text("customer");
        if (customer != null && !customer.equals(subscription.customer())) {
            throw StripeError.invalid(
                    "customer", "The subscription " + id + " does not belong to the customer " + customer + ".");
        }
        Change change = change(subscription, params, "subscription_details[items][0]", "subscription_details");
        String invoiceId = "upcoming_" + StripeId.INVOICE.next();
        StoredSubscription changed =
                subscription.changedTo(change.to().id(), change.now(), change.periodEnd(), invoiceId);
        StoredInvoice preview = invoices.priced(change.invoice(invoiceId, changed), false);
        List<StoredInvoiceItem> lines = change.credit() > 0 ? List.of(change.creditLine(invoiceId)) : List.of();
        for (StoredInvoiceItem line : lines) {
            preview = preview.withLineOf(line.amount());
        }
        return json.invoice(new StripeJson.InvoiceView(
                preview, change.to(), objects.customer(subscription.customer()).orElse(null), changed, lines));
    }

    /**
     * Reads a change's parameters: the subscription's one item ({@code [id]}) and its new {@code [price]}, and the
     * only behaviour the sandbox runs, a new period now with the proration invoiced at once.
     */
    private Change change(StoredSubscription subscription, StripeParams params, String item, String details) {
        String prefix = details.isEmpty() ? "" : details + "[";
        String suffix = details.isEmpty() ? "" : "]";
        if (subscription.hasEnded()) {
            throw StripeError.state(
                    "subscription_ended",
                    "A canceled subscription can only update its cancellation_details and metadata.");
        }
        String itemId = params.text(item + "[id]");
        if (itemId != null && !itemId.equals(subscription.itemId())) {
            throw StripeError.invalid(item + "[id]", "Invalid subscription item: " + itemId);
        }
        String priceId = params.required(item + "[price]");
        StoredPrice to =
                objects.price(priceId).orElseThrow(() -> StripeError.noSuchParam("price", priceId, item + "[price]"));
        String anchor = params.text(prefix + "billing_cycle_anchor" + suffix);
        if (!"now".equals(anchor)) {
            throw StripeError.invalid(
                    prefix + "billing_cycle_anchor" + suffix,
                    "The sandbox changes a price with billing_cycle_anchor=now only.");
        }
        String proration = params.text(prefix + "proration_behavior" + suffix);
        if (!"always_invoice".equals(proration)) {
            throw StripeError.invalid(
                    prefix + "proration_behavior" + suffix,
                    "The sandbox changes a price with proration_behavior=always_invoice only.");
        }
        StoredPrice from = objects.price(subscription.price()).orElseThrow();
        long now = Math.min(subscription.now(clock.instant().getEpochSecond()), subscription.currentPeriodEnd());
        long length = subscription.currentPeriodEnd() - subscription.currentPeriodStart();
        long unused = Math.max(0, subscription.currentPeriodEnd() - now);
        long credit = length <= 0
                ? 0
                : BigDecimal.valueOf(from.unitAmount() * subscription.quantity())
                        .multiply(BigDecimal.valueOf(unused))
                        .divide(BigDecimal.valueOf(length), 0, RoundingMode.HALF_UP)
                        .longValueExact();
        long periodEnd = StripeSubscriptions.periodEnd(now, to.interval(), now);
        return new Change(subscription, from, to, now, periodEnd, credit);
    }

    private Subscription retrieveFresh(String id) {
        return news.current(id);
    }
}
