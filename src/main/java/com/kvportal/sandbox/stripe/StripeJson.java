package com.kvportal.sandbox.stripe;

import com.google.gson.ExclusionStrategy;
import com.google.gson.FieldAttributes;
import com.google.gson.FieldNamingPolicy;
import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.kvportal.common.AppBaseUrl;
import com.kvportal.sandbox.store.SandboxObjects;
import com.kvportal.sandbox.store.StoredCheckoutSession;
import com.kvportal.sandbox.store.StoredCustomer;
import com.kvportal.sandbox.store.StoredInvoice;
import com.kvportal.sandbox.store.StoredInvoiceItem;
import com.kvportal.sandbox.store.StoredPortalSession;
import com.kvportal.sandbox.store.StoredPrice;
import com.kvportal.sandbox.store.StoredSchedule;
import com.kvportal.sandbox.store.StoredSubscription;
import com.stripe.model.Address;
import com.stripe.model.Customer;
import com.stripe.model.HasId;
import com.stripe.model.Invoice;
import com.stripe.model.InvoiceItem;
import com.stripe.model.InvoiceLineItem;
import com.stripe.model.InvoiceLineItemCollection;
import com.stripe.model.Plan;
import com.stripe.model.Price;
import com.stripe.model.StripeCollection;
import com.stripe.model.StripeObject;
import com.stripe.model.Subscription;
import com.stripe.model.SubscriptionItem;
import com.stripe.model.SubscriptionItemCollection;
import com.stripe.model.SubscriptionSchedule;
import com.stripe.model.checkout.Session;
import com.stripe.net.ApiResource;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;
import org.springframework.util.ReflectionUtils;

/**
 * Renders the sandbox's objects as stripe-java's own model objects ({@code com.stripe.model.*}) and writes them with
 * stripe-java's Gson, so that the shapes follow the API version of the bundled stripe-java at compile time. Rendering
 * reads nothing: its callers load what an object shows ({@link StripeViews}).
 */
@Component
public class StripeJson {

    /**
     * stripe-java's Gson (snake_case names, {@code ExpandableFieldSerializer}), writing nulls as Stripe's answers
     * carry them; a list's client-side request parameters are not part of Stripe's shape.
     */
    public static final Gson GSON = ApiResource.GSON
            .newBuilder()
            .serializeNulls()
            .addSerializationExclusionStrategy(new ExclusionStrategy() {
                @Override
                public boolean shouldSkipField(FieldAttributes field) {
                    return field.getDeclaringClass() == StripeCollection.class
                            && field.getName().equals("requestParams");
                }

                @Override
                public boolean shouldSkipClass(Class<?> type) {
                    return false;
                }
            })
            .create();

    /** The absolute URL of a path of this service. */
    private final UnaryOperator<String> url;

    @Autowired
    StripeJson(AppBaseUrl baseUrl) {
        this(baseUrl::resolve);
    }

    StripeJson(UnaryOperator<String> url) {
        this.url = url;
    }

    /** An invoice with what it shows besides its own row. */
    public record InvoiceView(
            StoredInvoice invoice,
            @Nullable StoredPrice price,
            @Nullable StoredCustomer customer,
            @Nullable StoredSubscription subscription,
            List<StoredInvoiceItem> items) {}

    public static JsonObject tree(StripeObject object) {
        return GSON.toJsonTree(object).getAsJsonObject();
    }

    /**
     * The stripe-java model of a stored record whose components carry Stripe's field names ({@code paymentIntent}:
     * {@code payment_intent}), as the record's columns do ({@code StoredRows}): the {@code object} it is, not in live
     * mode, its components, and {@code fields}, what Stripe shows besides (constants, nested objects), read as Stripe's
     * JSON. A component or field the model does not have is not shown.
     */
    public static <T extends StripeObject> T model(Class<T> type, String object, Record stored, Map<String, ?> fields) {
        JsonObject json = new JsonObject();
        json.addProperty("object", object);
        json.addProperty("livemode", false);
        for (RecordComponent component : stored.getClass().getRecordComponents()) {
            Method accessor = component.getAccessor();
            ReflectionUtils.makeAccessible(accessor);
            json.add(
                    FieldNamingPolicy.LOWER_CASE_WITH_UNDERSCORES.translateName(
                            Objects.requireNonNull(ReflectionUtils.findField(stored.getClass(), component.getName()))),
                    GSON.toJsonTree(ReflectionUtils.invokeMethod(accessor, stored)));
        }
        GSON.toJsonTree(fields).getAsJsonObject().asMap().forEach(json::add);
        return GSON.fromJson(json, type);
    }

    /** The top-level fields whose values differ, with their values before: Stripe's {@code previous_attributes}. */
    public static Map<String, Object> changes(StripeObject before, StripeObject after) {
        JsonObject was = tree(before);
        JsonObject is = tree(after);
        Map<String, Object> previous = new LinkedHashMap<>();
        for (Map.Entry<String, JsonElement> field : was.entrySet()) {
            if (!Objects.equals(field.getValue(), is.get(field.getKey()))) {
                previous.put(field.getKey(), field.getValue());
            }
        }
        return previous;
    }

    public Customer customer(StoredCustomer c) {
        Customer customer = new Customer();
        customer.setId(c.id());
        customer.setObject("customer");
        customer.setBalance(0L);
        customer.setCreated(c.created());
        customer.setCurrency("usd");
        customer.setDelinquent(false);
        customer.setEmail(c.email());
        customer.setInvoicePrefix(SandboxObjects.invoicePrefix(c.id()));
        customer.setInvoiceSettings(new Customer.InvoiceSettings());
        customer.setLivemode(false);
        customer.setMetadata(c.metadata());
        customer.setName(c.name());
        customer.setNextInvoiceSequence(1L);
        customer.setAddress(address(c));
        customer.setPreferredLocales(List.of());
        customer.setTaxExempt("none");
        return customer;
    }

    /** The billing address as the sandbox knows it: its country, once a checkout collected it. */
    private static @Nullable Address address(@Nullable StoredCustomer customer) {
        if (customer == null || customer.country() == null) {
            return null;
        }
        Address address = new Address();
        address.setCountry(customer.country());
        return address;
    }

    public Price price(StoredPrice p) {
        Price price = new Price();
        price.setId(p.id());
        price.setObject("price");
        price.setActive(true);
        price.setBillingScheme("per_unit");
        price.setCreated(p.created());
        price.setCurrency(p.currency());
        price.setLivemode(false);
        price.setMetadata(Map.of());
        price.setNickname(p.nickname());
        price.setProduct(p.product());
        Price.Recurring recurring = new Price.Recurring();
        recurring.setInterval(p.interval());
        recurring.setIntervalCount(1L);
        recurring.setUsageType("licensed");
        price.setRecurring(recurring);
        price.setTaxBehavior("unspecified");
        price.setType("recurring");
        price.setUnitAmount(p.unitAmount());
        price.setUnitAmountDecimal(BigDecimal.valueOf(p.unitAmount()));
        return price;
    }

    /** The legacy plan view of a price, which subscription items still carry. */
    private static Plan plan(StoredPrice p) {
        Plan plan = new Plan();
        plan.setId(p.id());
        plan.setObject("plan");
        plan.setActive(true);
        plan.setAmount(p.unitAmount());
        plan.setAmountDecimal(BigDecimal.valueOf(p.unitAmount()));
        plan.setBillingScheme("per_unit");
        plan.setCreated(p.created());
        plan.setCurrency(p.currency());
        plan.setInterval(p.interval());
        plan.setIntervalCount(1L);
        plan.setLivemode(false);
        plan.setMetadata(Map.of());
        plan.setNickname(p.nickname());
        plan.setProduct(p.product());
        plan.setUsageType("licensed");
        return plan;
    }

    public Session checkoutSession(StoredCheckoutSession s, StoredPrice price, @Nullable StoredCustomer customer) {
        long amount = price.unitAmount() * s.quantity();
        Session session = new Session();
        session.setId(s.id());
        session.setObject("checkout.session");
        session.setAmountSubtotal(amount);
        session.setAmountTotal(amount);
        session.setAllowPromotionCodes(s.allowPromotionCodes());
        Session.AutomaticTax automaticTax = new Session.AutomaticTax();
        automaticTax.setEnabled(s.automaticTax());
        session.setAutomaticTax(automaticTax);
        session.setBillingAddressCollection(s.billingAddressCollection());
        session.setCancelUrl(s.cancelUrl());
        session.setClientReferenceId(s.clientReferenceId());
        session.setCreated(s.created());
        session.setCurrency(price.currency());
        session.setCustomFields(List.of());
        session.setCustomer(s.customer());
        if (s.isComplete() && s.customer() != null) {
            Session.CustomerDetails details = new Session.CustomerDetails();
            details.setEmail(customer == null ? s.customerEmail() : customer.email());
            details.setName(customer == null ? null : customer.name());
            details.setAddress(address(customer));
            details.setTaxExempt("none");
            details.setTaxIds(List.of());
            session.setCustomerDetails(details);
        }
        session.setCustomerEmail(s.customerEmail());
        session.setExpiresAt(s.expiresAt());
        session.setLivemode(false);
        session.setMetadata(s.metadata());
        session.setMode(s.mode());
        session.setPaymentMethodCollection("always");
        session.setPaymentMethodTypes(List.of("card"));
        session.setPaymentStatus(s.paymentStatus());
        session.setStatus(s.status());
        session.setSubscription(s.subscription());
        session.setSuccessUrl(s.successUrl());
        Session.TotalDetails totals = new Session.TotalDetails();
        totals.setAmountDiscount(0L);
        totals.setAmountShipping(0L);
        totals.setAmountTax(0L);
        session.setTotalDetails(totals);
        session.setUiMode("hosted");
        // Stripe shows the URL only while the session can still be paid
        session.setUrl(s.status().equals("open") ? url.apply("/sandbox/checkout/" + s.id()) : null);
        return session;
    }

    public Subscription subscription(StoredSubscription s, StoredPrice price) {
        SubscriptionItem item = new SubscriptionItem();
        item.setId(s.itemId());
        item.setObject("subscription_item");
        item.setCreated(s.itemCreated());
        item.setCurrentPeriodEnd(s.currentPeriodEnd());
        item.setCurrentPeriodStart(s.currentPeriodStart());
        item.setDiscounts(List.of());
        item.setMetadata(Map.of());
        item.setPlan(plan(price));
        item.setPrice(price(price));
        item.setQuantity(s.quantity());
        item.setSubscription(s.id());
        item.setTaxRates(List.of());

        Subscription subscription = new Subscription();
        subscription.setId(s.id());
        subscription.setObject("subscription");
        Subscription.AutomaticTax automaticTax = new Subscription.AutomaticTax();
        automaticTax.setEnabled(false);
        subscription.setAutomaticTax(automaticTax);
        subscription.setBillingCycleAnchor(s.billingCycleAnchor());
        Subscription.BillingMode billingMode = new Subscription.BillingMode();
        billingMode.setType("classic");
        subscription.setBillingMode(billingMode);
        subscription.setCancelAt(s.cancelAt());
        subscription.setCancelAtPeriodEnd(s.cancelAtPeriodEnd());
        subscription.setCanceledAt(s.canceledAt());
        Subscription.CancellationDetails cancellation = new Subscription.CancellationDetails();
        cancellation.setReason(s.canceledAt() == null ? null : "cancellation_requested");
        subscription.setCancellationDetails(cancellation);
        subscription.setCollectionMethod("charge_automatically");
        subscription.setCreated(s.created());
        subscription.setCurrency(price.currency());
        subscription.setCustomer(s.customer());
        subscription.setDefaultTaxRates(List.of());
        subscription.setDiscounts(List.of());
        subscription.setEndedAt(s.endedAt());
        Subscription.InvoiceSettings invoiceSettings = new Subscription.InvoiceSettings();
        Subscription.InvoiceSettings.Issuer issuer = new Subscription.InvoiceSettings.Issuer();
        issuer.setType("self");
        invoiceSettings.setIssuer(issuer);
        subscription.setInvoiceSettings(invoiceSettings);
        SubscriptionItemCollection items = new SubscriptionItemCollection();
        fill(items, List.of(item), "/v1/subscription_items?subscription=" + s.id(), false);
        subscription.setItems(items);
        subscription.setLatestInvoice(s.latestInvoice());
        subscription.setLivemode(false);
        subscription.setMetadata(s.metadata());
        subscription.setStartDate(s.created());
        subscription.setStatus(s.status());
        subscription.setTrialStart(s.trialStart());
        subscription.setTrialEnd(s.trialEnd());
        Subscription.TrialSettings trialSettings = new Subscription.TrialSettings();
        Subscription.TrialSettings.EndBehavior endBehavior = new Subscription.TrialSettings.EndBehavior();
        endBehavior.setMissingPaymentMethod("create_invoice");
        trialSettings.setEndBehavior(endBehavior);
        subscription.setTrialSettings(trialSettings);
        return subscription;
    }

    /**
     * A subscription schedule as Stripe shows it, its {@code current_phase} the phase that runs {@code now} (by its
     * subscription's clock).
     */
    public SubscriptionSchedule schedule(StoredSchedule s, long now) {
        SubscriptionSchedule schedule = new SubscriptionSchedule();
        schedule.setId(s.id());
        schedule.setObject("subscription_schedule");
        SubscriptionSchedule.BillingMode billingMode = new SubscriptionSchedule.BillingMode();
        billingMode.setType("classic");
        schedule.setBillingMode(billingMode);
        schedule.setCanceledAt(s.canceledAt());
        schedule.setCompletedAt(s.completedAt());
        schedule.setCreated(s.created());
        StoredSchedule.Phase running = s.governs() ? s.phaseAt(now) : null;
        if (running != null) {
            SubscriptionSchedule.CurrentPhase current = new SubscriptionSchedule.CurrentPhase();
            current.setStartDate(running.startDate());
            current.setEndDate(running.endDate());
            schedule.setCurrentPhase(current);
        }
        schedule.setCustomer(s.customer());
        schedule.setEndBehavior(s.endBehavior());
        schedule.setLivemode(false);
        schedule.setMetadata(s.metadata());
        List<SubscriptionSchedule.Phase> phases = new ArrayList<>();
        for (StoredSchedule.Phase p : s.phases()) {
            SubscriptionSchedule.Phase.Item item = new SubscriptionSchedule.Phase.Item();
            item.setPrice(p.price());
            item.setPlan(p.price());
            item.setQuantity(p.quantity());
            item.setDiscounts(List.of());
            item.setMetadata(Map.of());
            item.setTaxRates(List.of());
            SubscriptionSchedule.Phase phase = new SubscriptionSchedule.Phase();
            phase.setAddInvoiceItems(List.of());
            phase.setCollectionMethod("charge_automatically");
            phase.setCurrency("usd");
            phase.setDefaultTaxRates(List.of());
            phase.setDiscounts(List.of());
            phase.setEndDate(p.endDate());
            phase.setItems(List.of(item));
            phase.setMetadata(Map.of());
            phase.setProrationBehavior("create_prorations");
            phase.setStartDate(p.startDate());
            phase.setTrialEnd(p.trialEnd());
            phases.add(phase);
        }
        schedule.setPhases(phases);
        schedule.setReleasedAt(s.releasedAt());
        schedule.setReleasedSubscription(s.releasedSubscription());
        schedule.setStatus(s.status());
        schedule.setSubscription(s.subscription());
        return schedule;
    }

    public Invoice invoice(InvoiceView view) {
        StoredInvoice i = view.invoice();
        StoredPrice price = view.price();
        boolean draft = i.isDraft();
        String currency = price != null
                ? price.currency()
                : view.items().isEmpty() ? "usd" : view.items().get(0).currency();

        List<InvoiceLineItem> lines = new ArrayList<>();
        if (i.hasSubscriptionLine() && price != null) {
            lines.add(subscriptionLine(i, price, view.subscription()));
        }
        for (StoredInvoiceItem item : view.items()) {
            lines.add(itemLine(item));
        }

        Invoice invoice = new Invoice();
        invoice.setId(i.id());
        invoice.setObject("invoice");
        invoice.setAccountCountry("US");
        invoice.setAccountName("kv-portal sandbox");
        invoice.setAmountDue(i.amountDue());
        invoice.setAmountOverpaid(0L);
        invoice.setAmountPaid(i.amountPaid());
        invoice.setAmountRemaining(i.amountDue() - i.amountPaid());
        invoice.setAmountShipping(0L);
        invoice.setAttemptCount((long) i.attemptCount());
        invoice.setAttempted(i.attemptCount() > 0);
        invoice.setAutoAdvance(i.autoAdvance());
        Invoice.AutomaticTax automaticTax = new Invoice.AutomaticTax();
        automaticTax.setEnabled(i.taxPercent() != null);
        automaticTax.setStatus(i.taxPercent() != null ? "complete" : null);
        invoice.setAutomaticTax(automaticTax);
        invoice.setAutomaticallyFinalizesAt(draft ? i.finalizesAt() : null);
        invoice.setBillingReason(i.billingReason());
        invoice.setCollectionMethod("charge_automatically");
        invoice.setCreated(i.created());
        invoice.setCurrency(currency);
        invoice.setCustomer(i.customer());
        invoice.setCustomerEmail(
                view.customer() == null ? null : view.customer().email());
        invoice.setCustomerName(view.customer() == null ? null : view.customer().name());
        invoice.setCustomerTaxExempt("none");
        invoice.setCustomerTaxIds(List.of());
        invoice.setDefaultTaxRates(List.of());
        invoice.setDiscounts(i.discount() == null ? List.of() : List.of(i.discount()));
        invoice.setEffectiveAt(i.finalizedAt());
        invoice.setEndingBalance(draft ? null : 0L);
        invoice.setHostedInvoiceUrl(draft ? null : url.apply("/sandbox/invoices/" + i.id()));
        Invoice.Issuer issuer = new Invoice.Issuer();
        issuer.setType("self");
        invoice.setIssuer(issuer);
        InvoiceLineItemCollection lineCollection = new InvoiceLineItemCollection();
        fill(lineCollection, lines, "/v1/invoices/" + i.id() + "/lines", false);
        invoice.setLines(lineCollection);
        invoice.setLivemode(false);
        invoice.setMetadata(Map.of());
        invoice.setNumber(i.number());
        if (i.subscription() != null) {
            Invoice.Parent.SubscriptionDetails details = new Invoice.Parent.SubscriptionDetails();
            details.setMetadata(
                    view.subscription() == null ? Map.of() : view.subscription().metadata());
            details.setSubscription(i.subscription());
            Invoice.Parent parent = new Invoice.Parent();
            parent.setSubscriptionDetails(details);
            parent.setType("subscription_details");
            invoice.setParent(parent);
        }
        invoice.setPaymentSettings(new Invoice.PaymentSettings());
        invoice.setPeriodEnd(i.periodEnd());
        invoice.setPeriodStart(i.periodStart());
        invoice.setPostPaymentCreditNotesAmount(0L);
        invoice.setPrePaymentCreditNotesAmount(0L);
        invoice.setStartingBalance(0L);
        invoice.setStatus(i.status());
        Invoice.StatusTransitions transitions = new Invoice.StatusTransitions();
        transitions.setFinalizedAt(i.finalizedAt());
        transitions.setPaidAt(i.paidAt());
        invoice.setStatusTransitions(transitions);
        long discount = i.discountAmount();
        invoice.setSubtotal(i.subtotal());
        invoice.setSubtotalExcludingTax(i.subtotal());
        invoice.setTotal(i.amountDue());
        invoice.setTotalDiscountAmounts(i.discount() == null ? List.of() : List.of(discountAmount(i)));
        invoice.setTotalExcludingTax(i.subtotal() - discount);
        invoice.setTotalPretaxCreditAmounts(List.of());
        invoice.setTotalTaxes(i.taxPercent() == null ? List.of() : List.of(tax(i)));
        return invoice;
    }

    private static Invoice.TotalDiscountAmount discountAmount(StoredInvoice i) {
        Invoice.TotalDiscountAmount amount = new Invoice.TotalDiscountAmount();
        amount.setAmount(i.discountAmount());
        amount.setDiscount(i.discount());
        return amount;
    }

    /** The invoice's tax in Stripe's shape: exclusive, at the sandbox's rate of the customer's country. */
    private static Invoice.TotalTax tax(StoredInvoice i) {
        Invoice.TotalTax tax = new Invoice.TotalTax();
        tax.setAmount(i.tax());
        tax.setTaxBehavior("exclusive");
        Invoice.TotalTax.TaxRateDetails details = new Invoice.TotalTax.TaxRateDetails();
        details.setTaxRate(
                "txr_sandbox_" + Objects.requireNonNull(i.taxCountry()).toLowerCase(Locale.ROOT));
        tax.setTaxRateDetails(details);
        tax.setTaxabilityReason(i.tax() == 0 ? "not_collecting" : "standard_rated");
        tax.setTaxableAmount(i.subtotal() - i.discountAmount());
        tax.setType("tax_rate_details");
        return tax;
    }

    /** The line of the subscription's price: it covers the service period of the invoice's line. */
    private static InvoiceLineItem subscriptionLine(
            StoredInvoice i, StoredPrice price, @Nullable StoredSubscription subscription) {
        long amount = i.isTrialStart() ? 0 : price.unitAmount() * i.quantity();
        InvoiceLineItem.Parent.SubscriptionItemDetails details = new InvoiceLineItem.Parent.SubscriptionItemDetails();
        details.setProration(false);
        details.setProrationDetails(new InvoiceLineItem.Parent.SubscriptionItemDetails.ProrationDetails());
        details.setSubscription(i.subscription());
        details.setSubscriptionItem(subscription == null ? null : subscription.itemId());
        InvoiceLineItem.Parent parent = new InvoiceLineItem.Parent();
        parent.setSubscriptionItemDetails(details);
        parent.setType("subscription_item_details");
        InvoiceLineItem.Pricing.PriceDetails priceDetails = new InvoiceLineItem.Pricing.PriceDetails();
        priceDetails.setPrice(price.id());
        priceDetails.setProduct(price.product());
        InvoiceLineItem.Pricing pricing = new InvoiceLineItem.Pricing();
        pricing.setPriceDetails(priceDetails);
        pricing.setType("price_details");
        pricing.setUnitAmountDecimal(BigDecimal.valueOf(price.unitAmount()));
        return line(
                Objects.requireNonNull(i.lineId()),
                i.id(),
                amount,
                price.currency(),
                i.isTrialStart()
                        ? "Trial period for " + price.nickname()
                        : i.quantity() + " × " + price.nickname() + " (at " + money(price.unitAmount()) + " / "
                                + price.interval() + ")",
                Map.of(),
                parent,
                i.linePeriodStart(),
                i.linePeriodEnd(),
                pricing,
                i.quantity());
    }

    /** The line an invoice item makes on its invoice. */
    private static InvoiceLineItem itemLine(StoredInvoiceItem item) {
        InvoiceLineItem.Parent.InvoiceItemDetails details = new InvoiceLineItem.Parent.InvoiceItemDetails();
        details.setInvoiceItem(item.id());
        details.setProration(item.proration());
        details.setProrationDetails(new InvoiceLineItem.Parent.InvoiceItemDetails.ProrationDetails());
        InvoiceLineItem.Parent parent = new InvoiceLineItem.Parent();
        parent.setInvoiceItemDetails(details);
        parent.setType("invoice_item_details");
        InvoiceLineItem.Pricing pricing = new InvoiceLineItem.Pricing();
        pricing.setUnitAmountDecimal(item.unitAmountDecimal().stripTrailingZeros());
        return line(
                item.lineId(),
                Objects.requireNonNull(item.invoice()),
                item.amount(),
                item.currency(),
                item.description(),
                item.metadata(),
                parent,
                item.periodStart(),
                item.periodEnd(),
                pricing,
                item.quantity());
    }

    private static InvoiceLineItem line(
            String id,
            String invoice,
            long amount,
            String currency,
            @Nullable String description,
            Map<String, String> metadata,
            InvoiceLineItem.Parent parent,
            long periodStart,
            long periodEnd,
            InvoiceLineItem.Pricing pricing,
            long quantity) {
        InvoiceLineItem line = new InvoiceLineItem();
        line.setId(id);
        line.setObject("line_item");
        line.setAmount(amount);
        line.setCurrency(currency);
        line.setDescription(description);
        line.setDiscountAmounts(List.of());
        line.setDiscountable(true);
        line.setDiscounts(List.of());
        line.setInvoice(invoice);
        line.setLivemode(false);
        line.setMetadata(metadata);
        line.setParent(parent);
        InvoiceLineItem.Period period = new InvoiceLineItem.Period();
        period.setStart(periodStart);
        period.setEnd(periodEnd);
        line.setPeriod(period);
        line.setPretaxCreditAmounts(List.of());
        line.setPricing(pricing);
        line.setQuantity(quantity);
        line.setSubtotal(amount);
        line.setTaxes(List.of());
        return line;
    }

    public InvoiceItem invoiceItem(StoredInvoiceItem i) {
        InvoiceItem item = new InvoiceItem();
        item.setId(i.id());
        item.setObject("invoiceitem");
        item.setAmount(i.amount());
        item.setCurrency(i.currency());
        item.setCustomer(i.customer());
        item.setDate(i.created());
        item.setDescription(i.description());
        item.setDiscountable(true);
        item.setDiscounts(List.of());
        item.setInvoice(i.invoice());
        item.setLivemode(false);
        item.setMetadata(i.metadata());
        item.setNetAmount(i.amount());
        InvoiceItem.Period period = new InvoiceItem.Period();
        period.setStart(i.periodStart());
        period.setEnd(i.periodEnd());
        item.setPeriod(period);
        InvoiceItem.Pricing pricing = new InvoiceItem.Pricing();
        pricing.setUnitAmountDecimal(i.unitAmountDecimal().stripTrailingZeros());
        item.setPricing(pricing);
        item.setProration(i.proration());
        item.setQuantity(i.quantity());
        item.setTaxRates(List.of());
        return item;
    }

    public com.stripe.model.billingportal.Session portalSession(StoredPortalSession p) {
        com.stripe.model.billingportal.Session session = new com.stripe.model.billingportal.Session();
        session.setId(p.id());
        session.setObject("billing_portal.session");
        session.setConfiguration("bpc_sandbox");
        session.setCreated(p.created());
        session.setCustomer(p.customer());
        session.setLivemode(false);
        session.setReturnUrl(p.returnUrl());
        session.setUrl(url.apply("/sandbox/portal/" + p.id()));
        return session;
    }

    /**
     * A list page in Stripe's shape from {@code rows} read with one more than {@code limit}: the first {@code limit}
     * of them in their {@code view}, and {@code has_more} when the extra one came.
     */
    public static <S, T extends HasId> StripeCollection<T> page(
            List<S> rows, int limit, Function<? super S, T> view, String url) {
        List<T> data = rows.stream().limit(limit).<T>map(view).toList();
        return fill(new StripeCollection<>(), data, url, rows.size() > limit);
    }

    private static <T extends HasId, C extends StripeCollection<T>> C fill(
            C collection, List<T> data, String url, boolean hasMore) {
        collection.setObject("list");
        collection.setData(data);
        collection.setHasMore(hasMore);
        collection.setUrl(url);
        return collection;
    }

    public static String money(long cents) {
        return String.format("$%d.%02d", cents / 100, cents % 100);
    }
}
