package com.kvportal.billing.stripe;

import com.kvportal.billing.InvoiceLine;
import com.kvportal.billing.InvoiceStatus;
import com.kvportal.billing.ProviderInvoiceItem;
import com.kvportal.billing.ids.ProviderCustomerId;
import com.kvportal.billing.ids.ProviderId;
import com.kvportal.billing.ids.ProviderInvoiceId;
import com.kvportal.billing.ids.ProviderInvoiceItemId;
import com.kvportal.billing.ids.ProviderSubscriptionId;
import com.kvportal.common.Parsed;
import com.kvportal.common.PaymentProvider;
import com.kvportal.common.WireName;
import com.kvportal.common.web.CommonProblem;
import com.kvportal.common.web.ProblemException;
import com.stripe.StripeClient;
import com.stripe.exception.InvalidRequestException;
import com.stripe.exception.StripeException;
import com.stripe.model.Coupon;
import com.stripe.model.Customer;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.InvoicePayment;
import com.stripe.model.PromotionCode;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import com.stripe.model.SubscriptionSchedule;
import com.stripe.model.checkout.Session;
import com.stripe.net.RequestOptions;
import com.stripe.param.CustomerCreateParams;
import com.stripe.param.InvoiceCreateParams;
import com.stripe.param.InvoiceCreatePreviewParams;
import com.stripe.param.InvoiceItemCreateParams;
import com.stripe.param.InvoiceItemListParams;
import com.stripe.param.InvoiceListParams;
import com.stripe.param.InvoicePaymentListParams;
import com.stripe.param.PromotionCodeListParams;
import com.stripe.param.RefundCreateParams;
import com.stripe.param.SubscriptionScheduleCreateParams;
import com.stripe.param.SubscriptionScheduleUpdateParams;
import com.stripe.param.SubscriptionScheduleUpdateParams.Phase;
import com.stripe.param.SubscriptionUpdateParams;
import com.stripe.param.checkout.SessionCreateParams;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import lombok.AccessLevel;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The calls billing makes to the payment provider, through the official stripe-java client: the same code talks
 * to Stripe and to the sandbox, only the API base differs. Every failure of the provider (unreachable, timeout,
 * an error answer) becomes {@link PaymentProviderUnavailable}.
 */
@Component
@RequiredArgsConstructor(access = AccessLevel.PACKAGE)
public class StripeGateway {

    private static final Logger log = LoggerFactory.getLogger(StripeGateway.class);

    private final PaymentProvider provider;
    private final StripeProperties properties;
    private final Clock clock;
    private volatile @Nullable Client client;

    /** A client for one API base; the sandbox's base is known only once the server listens. */
    private record Client(String apiBase, StripeClient stripe) {}

    /** A hosted checkout session the customer is sent to. */
    public record CheckoutSession(String id, String url) {}

    /**
     * Creates the organization's customer. The idempotency key is the organization's, so that a retried or
     * concurrent create answers the same customer instead of making a second one.
     */
    public ProviderCustomerId createCustomer(UUID organizationId, String email, String name) {
        CustomerCreateParams params = CustomerCreateParams.builder()
                .setEmail(email)
                .setName(name)
                .putMetadata(ProviderCheckout.ORGANIZATION_KEY, organizationId.toString())
                .build();
        RequestOptions options = RequestOptions.builder()
                .setIdempotencyKey(ProviderIdempotencyKeys.customer(organizationId))
                .build();
        Customer customer = call("create a customer", () -> stripe().customers().create(params, options));
        return Parsed.orEmpty(customer.getId(), ProviderCustomerId::new)
                .orElseThrow(() -> unusable("customer id " + customer.getId()));
    }

    /**
     * The provider's id ({@code promo_...}) of the promotion code a customer entered, when the provider has an active
     * code of that text that can be redeemed now: not expired, redemptions left, its coupon still valid. Empty
     * otherwise.
     */
    public Optional<String> redeemablePromotionCode(String code) {
        PromotionCodeListParams params = PromotionCodeListParams.builder()
                .setCode(code)
                .setActive(true)
                .setLimit(1L)
                .addExpand("data.promotion.coupon")
                .build();
        List<PromotionCode> found = call("look up a promotion code", () -> stripe().promotionCodes()
                        .list(params))
                .getData();
        long now = clock.instant().getEpochSecond();
        return found.stream()
                .filter(promotion -> Boolean.TRUE.equals(promotion.getActive())
                        && (promotion.getExpiresAt() == null || promotion.getExpiresAt() > now)
                        && (promotion.getMaxRedemptions() == null
                                || promotion.getTimesRedeemed() == null
                                || promotion.getTimesRedeemed() < promotion.getMaxRedemptions())
                        && couponValid(promotion))
                .map(PromotionCode::getId)
                .filter(id -> ProviderId.wellFormed(id, "promo_"))
                .findFirst();
    }

    private static boolean couponValid(PromotionCode promotion) {
        Coupon coupon = promotion.getPromotion() == null
                ? null
                : promotion.getPromotion().getCouponObject();
        return coupon == null || !Boolean.FALSE.equals(coupon.getValid());
    }

    /**
     * Creates a hosted checkout for a subscription to {@code priceId}, naming the organization in the session: with
     * the promotion code's discount when one is given, else with a field for the customer to enter a code; with
     * automatic tax on, the billing address collected and the invoices taxed by it; with {@code trialDays} above 0 the
     * subscription starts with a trial of that many days (the card is still collected).
     */
    public CheckoutSession createCheckout(
            ProviderCustomerId customer,
            UUID organizationId,
            UUID portalCustomerId,
            String priceId,
            @Nullable String promotionCodeId,
            int trialDays,
            String successUrl,
            String cancelUrl) {
        SessionCreateParams.SubscriptionData.Builder subscription = SessionCreateParams.SubscriptionData.builder()
                .putMetadata(ProviderCheckout.ORGANIZATION_KEY, organizationId.toString());
        if (trialDays > 0) {
            subscription.setTrialPeriodDays((long) trialDays);
        }
        SessionCreateParams.Builder builder = SessionCreateParams.builder();
        if (promotionCodeId != null) {
            builder.addDiscount(SessionCreateParams.Discount.builder()
                    .setPromotionCode(promotionCodeId)
                    .build());
        } else {
            builder.setAllowPromotionCodes(true);
        }
        if (properties.automaticTax()) {
            builder.setBillingAddressCollection(SessionCreateParams.BillingAddressCollection.REQUIRED)
                    .setAutomaticTax(SessionCreateParams.AutomaticTax.builder()
                            .setEnabled(true)
                            .build())
                    // Stripe taxes an existing customer by the address entered on the page only when told to keep it
                    .setCustomerUpdate(SessionCreateParams.CustomerUpdate.builder()
                            .setAddress(SessionCreateParams.CustomerUpdate.Address.AUTO)
                            .build());
        }
        SessionCreateParams params = builder.setMode(SessionCreateParams.Mode.SUBSCRIPTION)
                .setCustomer(customer.value())
                .setClientReferenceId(organizationId.toString())
                .putMetadata(ProviderCheckout.ORGANIZATION_KEY, organizationId.toString())
                .putMetadata(ProviderCheckout.CUSTOMER_KEY, portalCustomerId.toString())
                .setSubscriptionData(subscription.build())
                .addLineItem(SessionCreateParams.LineItem.builder()
                        .setPrice(priceId)
                        .setQuantity(1L)
                        .build())
                .setSuccessUrl(successUrl)
                .setCancelUrl(cancelUrl)
                .build();
        Session session = call(
                "create a checkout session",
                () -> stripe().checkout().sessions().create(params));
        if (session.getId() == null || session.getUrl() == null) {
            throw unusable("checkout session without id or url");
        }
        return new CheckoutSession(session.getId(), session.getUrl());
    }

    /** The invoice as the provider states it now; empty when the provider knows no such invoice. */
    public Optional<ProviderInvoice> findInvoice(ProviderInvoiceId invoiceId) {
        return find("retrieve an invoice", () -> stripe().invoices().retrieve(invoiceId.value()))
                .flatMap(invoice -> ProviderInvoice.of(invoice, null, java.time.Instant.EPOCH));
    }

    /** The session as the provider knows it; empty when the provider knows no such session. */
    public Optional<ProviderCheckout> retrieveCheckout(String sessionId) {
        return find(
                "retrieve a checkout session",
                () -> ProviderCheckout.of(stripe().checkout().sessions().retrieve(sessionId)));
    }

    /**
     * Expires an open session, so that it can no longer be paid.
     *
     * @return the session's status at the provider afterwards ({@code expired}, or {@code complete} when it was paid
     *     first); empty when the provider knows no such session
     */
    public Optional<String> expireCheckout(String sessionId) {
        try {
            return Optional.of(String.valueOf(
                    stripe().checkout().sessions().expire(sessionId).getStatus()));
        } catch (InvalidRequestException e) {
            if (e.getStatusCode() != null && e.getStatusCode() == 404) {
                return Optional.empty();
            }
            // only an open session can be expired: read what it is instead
            return retrieveCheckout(sessionId).map(checkout -> String.valueOf(checkout.status()));
        } catch (StripeException | RuntimeException e) {
            throw unavailable("expire a checkout session", e);
        }
    }

    /**
     * Undoes a subscription the organization must not have: cancels it now and refunds every payment of its
     * invoices (reason {@code duplicate}, under an idempotency key of the payment, so that a repeat refunds nothing
     * twice). Safe to repeat.
     *
     * @return the subscription as the provider states it afterwards; empty when the provider knows no such
     *     subscription
     */
    public Optional<ProviderSubscription> cancelDuplicate(ProviderSubscriptionId id) {
        Optional<Subscription> found =
                find("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        Subscription subscription = found.get();
        if (!"canceled".equals(subscription.getStatus()) && !"incomplete_expired".equals(subscription.getStatus())) {
            try {
                subscription = stripe().subscriptions().cancel(id.value());
            } catch (InvalidRequestException e) {
                // canceled meanwhile: read it again
                subscription = call("retrieve a subscription", () -> stripe().subscriptions()
                        .retrieve(id.value()));
            } catch (StripeException | RuntimeException e) {
                throw unavailable("cancel a subscription", e);
            }
        }
        InvoiceListParams invoices = InvoiceListParams.builder()
                .setSubscription(id.value())
                .setLimit(100L)
                .build();
        for (Invoice invoice :
                call("list invoices", () -> stripe().invoices().list(invoices)).getData()) {
            if (invoice.getAmountPaid() != null && invoice.getAmountPaid() > 0) {
                refundPayments(invoice.getId());
            }
        }
        return Optional.of(ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id)));
    }

    private void refundPayments(String invoiceId) {
        InvoicePaymentListParams list = InvoicePaymentListParams.builder()
                .setInvoice(invoiceId)
                .setLimit(100L)
                .build();
        for (InvoicePayment payment : call("list invoice payments", () -> stripe().invoicePayments()
                        .list(list))
                .getData()) {
            String paymentIntent =
                    payment.getPayment() == null ? null : payment.getPayment().getPaymentIntent();
            if (!"paid".equals(payment.getStatus()) || paymentIntent == null) {
                continue;
            }
            RefundCreateParams params = RefundCreateParams.builder()
                    .setPaymentIntent(paymentIntent)
                    .setReason(RefundCreateParams.Reason.DUPLICATE)
                    .putMetadata("invoice", invoiceId)
                    .build();
            RequestOptions options = RequestOptions.builder()
                    .setIdempotencyKey(ProviderIdempotencyKeys.duplicateRefund(paymentIntent))
                    .build();
            try {
                stripe().refunds().create(params, options);
                log.info("Refunded payment {} of invoice {}", paymentIntent, invoiceId);
            } catch (InvalidRequestException e) {
                if (!"charge_already_refunded".equals(e.getCode())) {
                    throw unavailable("refund a payment", e);
                }
            } catch (StripeException | RuntimeException e) {
                throw unavailable("refund a payment", e);
            }
        }
    }

    /** The subscription; empty when the provider knows no such subscription. */
    public Optional<ProviderSubscription> findSubscription(ProviderSubscriptionId id) {
        return find("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()))
                .map(subscription ->
                        ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id)));
    }

    public ProviderSubscription retrieveSubscription(ProviderSubscriptionId id) {
        Subscription subscription =
                call("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        return ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id));
    }

    /** Ends the subscription now (its organization is deleted); answers it as the provider states it afterwards. */
    public ProviderSubscription cancelNow(ProviderSubscriptionId id) {
        Subscription subscription;
        try {
            subscription = stripe().subscriptions().cancel(id.value());
        } catch (InvalidRequestException e) {
            // canceled meanwhile: read it again
            subscription = call(
                    "retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        } catch (StripeException | RuntimeException e) {
            throw unavailable("cancel a subscription", e);
        }
        return ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id));
    }

    /** Sets the subscription to end at the close of its current period; answers the updated subscription. */
    public ProviderSubscription cancelAtPeriodEnd(ProviderSubscriptionId id) {
        SubscriptionUpdateParams params =
                SubscriptionUpdateParams.builder().setCancelAtPeriodEnd(true).build();
        Subscription subscription = call("cancel a subscription at period end", () -> stripe().subscriptions()
                .update(id.value(), params));
        return ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id));
    }

    /** Takes back a cancellation at period end: the subscription renews again; answers it as updated. */
    public ProviderSubscription resume(ProviderSubscriptionId id) {
        SubscriptionUpdateParams params =
                SubscriptionUpdateParams.builder().setCancelAtPeriodEnd(false).build();
        Subscription subscription =
                call("resume a subscription", () -> stripe().subscriptions().update(id.value(), params));
        return ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id));
    }

    /**
     * Moves the subscription's one item to {@code priceId} at once: a new period from now
     * ({@code billing_cycle_anchor=now}) and the unused time of the old price credited on an invoice the provider
     * makes and charges at once ({@code proration_behavior=always_invoice}). The idempotency key binds the call to the
     * subscription's period and the new price, so a repeated request changes nothing twice. During a trial
     * ({@code trialEnd} not null) the trial keeps its end: the price changes within it, and nothing is invoiced.
     */
    public ProviderSubscription changePrice(
            ProviderSubscriptionId id, String priceId, @Nullable Instant trialEnd, String idempotencyKey) {
        String itemId = itemOf(id);
        SubscriptionUpdateParams.Builder builder = SubscriptionUpdateParams.builder()
                .addItem(SubscriptionUpdateParams.Item.builder()
                        .setId(itemId)
                        .setPrice(priceId)
                        .build());
        if (trialEnd == null) {
            builder.setBillingCycleAnchor(SubscriptionUpdateParams.BillingCycleAnchor.NOW)
                    .setProrationBehavior(SubscriptionUpdateParams.ProrationBehavior.ALWAYS_INVOICE);
        } else {
            builder.setTrialEnd(trialEnd.getEpochSecond())
                    .setProrationBehavior(SubscriptionUpdateParams.ProrationBehavior.NONE);
        }
        SubscriptionUpdateParams params = builder.build();
        RequestOptions options =
                RequestOptions.builder().setIdempotencyKey(idempotencyKey).build();
        Subscription subscription = call(
                "change a subscription's price", () -> stripe().subscriptions().update(id.value(), params, options));
        return ProviderSubscription.of(subscription).orElseThrow(() -> unusable("subscription " + id));
    }

    /** What {@link #changePrice} would invoice now: the provider's preview of that invoice, made of nothing. */
    public InvoicePreview previewPriceChange(ProviderSubscriptionId id, String priceId) {
        String itemId = itemOf(id);
        InvoiceCreatePreviewParams params = InvoiceCreatePreviewParams.builder()
                .setSubscription(id.value())
                .setSubscriptionDetails(InvoiceCreatePreviewParams.SubscriptionDetails.builder()
                        .addItem(InvoiceCreatePreviewParams.SubscriptionDetails.Item.builder()
                                .setId(itemId)
                                .setPrice(priceId)
                                .build())
                        .setBillingCycleAnchor(InvoiceCreatePreviewParams.SubscriptionDetails.BillingCycleAnchor.NOW)
                        .setProrationBehavior(
                                InvoiceCreatePreviewParams.SubscriptionDetails.ProrationBehavior.ALWAYS_INVOICE)
                        .build())
                .build();
        Invoice invoice = call("preview an invoice", () -> stripe().invoices().createPreview(params));
        List<InvoicePreview.Line> lines = new ArrayList<>();
        if (invoice.getLines() != null && invoice.getLines().getData() != null) {
            invoice.getLines()
                    .getData()
                    .forEach(line -> lines.add(new InvoicePreview.Line(
                            line.getDescription() == null ? "" : line.getDescription(),
                            line.getAmount() == null ? 0 : line.getAmount())));
        }
        return new InvoicePreview(
                invoice.getAmountDue() == null ? 0 : invoice.getAmountDue(),
                invoice.getCurrency() == null ? "usd" : invoice.getCurrency(),
                lines);
    }

    /** A price change that the provider's subscription schedule makes at the end of the current period. */
    public record ScheduledPrice(String scheduleId, Instant effectiveAt) {}

    /**
     * Moves the subscription to {@code priceId} at the end of its current period, through a subscription schedule
     * made from it: a first phase on its price until the period ends, then a phase of one period on the new price,
     * and the schedule released after it (the subscription goes on, on the new price). A schedule that governed it
     * before is released first: the new change replaces it. During a trial the first phase keeps the trial's end (a
     * schedule's update restates its phases whole: a phase without {@code trial_end} would end the trial at once),
     * so the change takes effect when the trial ends. When another caller made a schedule of the subscription
     * meanwhile (the provider takes one at a time) and it makes this very change, it is answered.
     */
    public ScheduledPrice schedulePriceAtPeriodEnd(ProviderSubscriptionId id, String priceId) {
        Subscription subscription =
                call("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        SubscriptionItem item = itemOf(subscription, id);
        if (subscription.getSchedule() != null) {
            releaseSchedule(subscription.getSchedule());
        }
        SubscriptionSchedule created;
        try {
            created = stripe().subscriptionSchedules()
                    .create(SubscriptionScheduleCreateParams.builder()
                            .setFromSubscription(id.value())
                            .build());
        } catch (InvalidRequestException e) {
            if (!"resource_already_exists".equals(e.getCode())) {
                throw unavailable("create a subscription schedule", e);
            }
            return sameChangeScheduled(id, priceId).orElseThrow(() -> unavailable("create a subscription schedule", e));
        } catch (StripeException | RuntimeException e) {
            throw unavailable("create a subscription schedule", e);
        }
        if (created.getPhases() == null || created.getPhases().isEmpty() || item.getPrice() == null) {
            throw unusable("subscription schedule without phases " + created.getId());
        }
        String interval = item.getPrice().getRecurring() == null
                ? "month"
                : item.getPrice().getRecurring().getInterval();
        SubscriptionScheduleUpdateParams params = SubscriptionScheduleUpdateParams.builder()
                .addPhase(Phase.builder()
                        .addItem(Phase.Item.builder()
                                .setPrice(item.getPrice().getId())
                                .setQuantity(item.getQuantity())
                                .build())
                        .setStartDate(created.getPhases().get(0).getStartDate())
                        .setEndDate(item.getCurrentPeriodEnd())
                        .setTrialEnd("trialing".equals(subscription.getStatus()) ? subscription.getTrialEnd() : null)
                        .build())
                .addPhase(Phase.builder()
                        .addItem(Phase.Item.builder()
                                .setPrice(priceId)
                                .setQuantity(item.getQuantity())
                                .build())
                        .setDuration(Phase.Duration.builder()
                                .setInterval(
                                        switch (interval) {
                                            case "day" -> Phase.Duration.Interval.DAY;
                                            case "week" -> Phase.Duration.Interval.WEEK;
                                            case "year" -> Phase.Duration.Interval.YEAR;
                                            default -> Phase.Duration.Interval.MONTH;
                                        })
                                .setIntervalCount(1L)
                                .build())
                        .build())
                .setEndBehavior(SubscriptionScheduleUpdateParams.EndBehavior.RELEASE)
                .build();
        SubscriptionSchedule schedule = call("update a subscription schedule", () -> stripe().subscriptionSchedules()
                .update(created.getId(), params));
        if (schedule.getPhases() == null || schedule.getPhases().size() < 2) {
            throw unusable("subscription schedule without its phases " + schedule.getId());
        }
        return new ScheduledPrice(
                schedule.getId(),
                Instant.ofEpochSecond(schedule.getPhases().get(1).getStartDate()));
    }

    /** The schedule that governs the subscription now, when it moves it to {@code priceId} in its second phase. */
    private Optional<ScheduledPrice> sameChangeScheduled(ProviderSubscriptionId id, String priceId) {
        Subscription subscription =
                call("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        if (subscription.getSchedule() == null) {
            return Optional.empty();
        }
        SubscriptionSchedule schedule = call("retrieve a subscription schedule", () -> stripe().subscriptionSchedules()
                .retrieve(subscription.getSchedule()));
        if (schedule.getPhases() == null
                || schedule.getPhases().size() != 2
                || schedule.getPhases().get(1).getItems().isEmpty()
                || !priceId.equals(schedule.getPhases().get(1).getItems().get(0).getPrice())) {
            return Optional.empty();
        }
        return Optional.of(new ScheduledPrice(
                schedule.getId(),
                Instant.ofEpochSecond(schedule.getPhases().get(1).getStartDate())));
    }

    /**
     * Releases the schedule that governs the subscription, if any: the subscription goes on as it is, and no
     * scheduled change happens. Answers whether there was one.
     */
    public boolean releaseScheduleOf(ProviderSubscriptionId id) {
        Subscription subscription =
                call("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        if (subscription.getSchedule() == null) {
            return false;
        }
        releaseSchedule(subscription.getSchedule());
        return true;
    }

    private void releaseSchedule(String scheduleId) {
        try {
            stripe().subscriptionSchedules().release(scheduleId);
        } catch (InvalidRequestException e) {
            // released or ended meanwhile: it governs nothing any more, which is what releasing wants
            log.info("Schedule {} was not released: {}", scheduleId, e.getMessage());
        } catch (StripeException | RuntimeException e) {
            throw unavailable("release a subscription schedule", e);
        }
    }

    /** The id of the subscription's one item, as the provider states it. */
    private String itemOf(ProviderSubscriptionId id) {
        Subscription subscription =
                call("retrieve a subscription", () -> stripe().subscriptions().retrieve(id.value()));
        return itemOf(subscription, id).getId();
    }

    private static SubscriptionItem itemOf(Subscription subscription, ProviderSubscriptionId id) {
        if (subscription.getItems() == null
                || subscription.getItems().getData() == null
                || subscription.getItems().getData().isEmpty()) {
            throw unusable("subscription without items " + id);
        }
        return subscription.getItems().getData().get(0);
    }

    /** A customer-portal session; answers its URL. */
    public String createPortalSession(ProviderCustomerId customer, String returnUrl) {
        com.stripe.param.billingportal.SessionCreateParams params =
                com.stripe.param.billingportal.SessionCreateParams.builder()
                        .setCustomer(customer.value())
                        .setReturnUrl(returnUrl)
                        .build();
        com.stripe.model.billingportal.Session session = call(
                "create a portal session",
                () -> stripe().billingPortal().sessions().create(params));
        if (session.getUrl() == null) {
            throw unusable("portal session without url");
        }
        return session.getUrl();
    }

    /**
     * Creates an invoice item under the request's idempotency key: on the named invoice, or pending (joining the
     * customer's next invoice) when none is named.
     *
     * @return the item's id ({@code ii_...}); empty when the provider refused because the named invoice is no
     *     longer a draft
     */
    public Optional<ProviderInvoiceItemId> createInvoiceItem(InvoiceItemRequest item) {
        InvoiceItemCreateParams.Builder params = InvoiceItemCreateParams.builder()
                .setCustomer(item.providerCustomerId().value())
                .setQuantity(item.quantity())
                .setUnitAmountDecimal(BigDecimal.valueOf(item.unitAmountCents()))
                .setCurrency(item.currency())
                .setDescription(item.description())
                .setPeriod(InvoiceItemCreateParams.Period.builder()
                        .setStart(item.periodStart().getEpochSecond())
                        .setEnd(item.periodEnd().getEpochSecond())
                        .build())
                .putAllMetadata(item.metadata());
        ProviderInvoiceId invoice = item.providerInvoiceId();
        if (invoice != null) {
            params.setInvoice(invoice.value());
        }
        RequestOptions options = RequestOptions.builder()
                .setIdempotencyKey(item.idempotencyKey())
                .build();
        InvoiceItem created;
        try {
            created = stripe().invoiceItems().create(params.build(), options);
        } catch (InvalidRequestException e) {
            if (invoice != null && isNoLongerDraft(invoice)) {
                log.info("The provider refused an item on invoice {}: it is no longer a draft", invoice);
                return Optional.empty();
            }
            throw unavailable("create an invoice item", e);
        } catch (StripeException | RuntimeException e) {
            throw unavailable("create an invoice item", e);
        }
        if (!ProviderId.wellFormed(created.getId(), "ii_")) {
            throw unusable("invoice item id " + created.getId());
        }
        return Optional.of(new ProviderInvoiceItemId(created.getId()));
    }

    /**
     * Every invoice item at the provider whose metadata {@code kind} is the given one, pending or on any invoice,
     * read page by page (100 a page); deleted items are not listed.
     */
    public List<ProviderInvoiceItem> invoiceItemsOfKind(String kind) {
        InvoiceItemListParams params =
                InvoiceItemListParams.builder().setLimit(100L).build();
        return call("list invoice items", () -> {
            List<ProviderInvoiceItem> items = new ArrayList<>();
            for (InvoiceItem item : stripe().invoiceItems().list(params).autoPagingIterable()) {
                Map<String, String> metadata = item.getMetadata() == null ? Map.of() : item.getMetadata();
                if (kind.equals(metadata.get(InvoiceLine.KIND_KEY))) {
                    items.add(new ProviderInvoiceItem(
                            new ProviderInvoiceItemId(item.getId()),
                            item.getInvoice() == null ? null : new ProviderInvoiceId(item.getInvoice()),
                            item.getQuantity() == null ? 0 : item.getQuantity(),
                            item.getAmount() == null ? 0 : item.getAmount(),
                            metadata));
                }
            }
            return items;
        });
    }

    /** Whether the provider shows the invoice in another status than draft (asked after a refusal). */
    private boolean isNoLongerDraft(ProviderInvoiceId invoiceId) {
        Invoice invoice = call("retrieve an invoice", () -> stripe().invoices().retrieve(invoiceId.value()));
        return invoice.getStatus() != null
                && WireName.of(InvoiceStatus.class, invoice.getStatus())
                        .filter(status -> status != InvoiceStatus.DRAFT)
                        .isPresent();
    }

    /**
     * Creates an invoice of the customer's pending items ({@code pending_invoice_items_behavior=include},
     * {@code auto_advance=true}) under the idempotency key.
     *
     * @return its id ({@code in_...})
     */
    public ProviderInvoiceId createInvoiceOfPendingItems(ProviderCustomerId providerCustomerId, String idempotencyKey) {
        InvoiceCreateParams params = InvoiceCreateParams.builder()
                .setCustomer(providerCustomerId.value())
                .setPendingInvoiceItemsBehavior(InvoiceCreateParams.PendingInvoiceItemsBehavior.INCLUDE)
                .setAutoAdvance(true)
                // taxed as the subscription's invoices are
                .setAutomaticTax(InvoiceCreateParams.AutomaticTax.builder()
                        .setEnabled(properties.automaticTax())
                        .build())
                .build();
        RequestOptions options =
                RequestOptions.builder().setIdempotencyKey(idempotencyKey).build();
        Invoice invoice = call("create an invoice", () -> stripe().invoices().create(params, options));
        if (!ProviderId.wellFormed(invoice.getId(), "in_")) {
            throw unusable("invoice id " + invoice.getId());
        }
        return new ProviderInvoiceId(invoice.getId());
    }

    /**
     * Finalizes a draft invoice under the idempotency key; the provider then charges it. An invoice the provider
     * finalized by itself meanwhile (it advances automatically: Stripe finalizes such a draft within the hour, the
     * sandbox once its {@code invoice.created} was answered) is finalized as asked: the provider's refusal to
     * finalize it again is not a failure, or a charge whose first try failed after the invoice was made could never
     * be sent.
     */
    public void finalizeInvoice(ProviderInvoiceId invoiceId, String idempotencyKey) {
        RequestOptions options =
                RequestOptions.builder().setIdempotencyKey(idempotencyKey).build();
        try {
            stripe().invoices().finalizeInvoice(invoiceId.value(), options);
        } catch (InvalidRequestException e) {
            if (!isNoLongerDraft(invoiceId)) {
                throw unavailable("finalize an invoice", e);
            }
            log.info("Invoice {} was finalized by the provider already", invoiceId);
        } catch (StripeException | RuntimeException e) {
            throw unavailable("finalize an invoice", e);
        }
    }

    private StripeClient stripe() {
        String apiBase = properties.apiBase().isBlank() ? provider.apiBase() : properties.apiBase();
        Client current = client;
        if (current == null || !current.apiBase().equals(apiBase)) {
            current = new Client(
                    apiBase,
                    StripeClient.builder()
                            .setApiKey(provider.secretKey())
                            .setApiBase(apiBase)
                            .setConnectTimeout((int) properties.connectTimeout().toMillis())
                            .setReadTimeout((int) properties.readTimeout().toMillis())
                            .setMaxNetworkRetries(1)
                            .build());
            client = current;
        }
        return current.stripe();
    }

    @FunctionalInterface
    private interface ProviderCall<T> {
        T run() throws StripeException;
    }

    private static <T> T call(String what, ProviderCall<T> call) {
        try {
            return call.run();
        } catch (StripeException | RuntimeException e) {
            throw unavailable(what, e);
        }
    }

    /** The provider's object; empty when the provider answers 404, as it does for an id it does not know. */
    private static <T> Optional<T> find(String what, ProviderCall<T> call) {
        try {
            return Optional.of(call.run());
        } catch (InvalidRequestException e) {
            if (e.getStatusCode() != null && e.getStatusCode() == 404) {
                return Optional.empty();
            }
            throw unavailable(what, e);
        } catch (StripeException | RuntimeException e) {
            throw unavailable(what, e);
        }
    }

    private static PaymentProviderUnavailable unavailable(String what, Exception e) {
        log.warn("The payment provider failed to {}: {}", what, e.toString());
        return new PaymentProviderUnavailable();
    }

    private static PaymentProviderUnavailable unusable(String what) {
        log.warn("The payment provider answered an unusable {}", what);
        return new PaymentProviderUnavailable();
    }

    /** 502: the payment provider failed or did not answer in time; nothing was changed here. */
    public static final class PaymentProviderUnavailable extends ProblemException {
        PaymentProviderUnavailable() {
            super(
                    CommonProblem.PAYMENT_PROVIDER_UNAVAILABLE,
                    "The payment provider did not answer as expected; nothing was changed. Try again shortly.");
        }
    }
}
