package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.util.List;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.stereotype.Repository;

/** The SQL of the sandbox's Stripe objects. Methods named {@code lock...} take a row lock until commit. */
@Repository
@RequiredArgsConstructor
public class SandboxObjects {

    private static final StoredTable<StoredPrice> PRICES = StoredTable.of(
            "select *, recurring_interval as \"interval\" from sandbox.sandbox_prices", StoredPrice.class);
    private static final StoredTable<StoredCustomer> CUSTOMERS = StoredTable.of(
            "select *, card_outcome as card, address_country as country from sandbox.sandbox_customers",
            StoredCustomer.class);
    private static final StoredTable<StoredCheckoutSession> CHECKOUT_SESSIONS =
            StoredTable.of("select * from sandbox.sandbox_checkout_sessions", StoredCheckoutSession.class);
    private static final StoredTable<StoredSubscription> SUBSCRIPTIONS =
            StoredTable.of("select * from sandbox.sandbox_subscriptions", StoredSubscription.class);
    private static final StoredTable<StoredInvoiceItem> INVOICE_ITEMS =
            StoredTable.of("select * from sandbox.sandbox_invoice_items", StoredInvoiceItem.class);
    private static final StoredTable<StoredInvoice> INVOICES =
            StoredTable.of("select * from sandbox.sandbox_invoices", StoredInvoice.class);
    private static final StoredTable<StoredPortalSession> PORTAL_SESSIONS =
            StoredTable.of("select * from sandbox.sandbox_portal_sessions", StoredPortalSession.class);

    private final SandboxDatabase database;

    // prices

    public Optional<StoredPrice> price(String id) {
        return PRICES.one(database, id);
    }

    // customers

    public void insert(StoredCustomer customer) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_customers (id, email, name, metadata, card_outcome, address_country, created)
                        values (:id, :email, :name, :metadata::jsonb, :card, :country, :created)""",
                customer);
    }

    public void update(StoredCustomer customer) {
        StoredRows.write(
                database,
                """
                        update sandbox.sandbox_customers
                        set email = :email, name = :name, metadata = :metadata::jsonb, card_outcome = :card,
                            address_country = :country
                        where id = :id""",
                customer);
    }

    public Optional<StoredCustomer> customer(String id) {
        return CUSTOMERS.one(database, id);
    }

    public Optional<StoredCustomer> lockCustomer(String id) {
        return CUSTOMERS.locked(database, id);
    }

    // checkout sessions

    public void insert(StoredCheckoutSession s) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_checkout_sessions (id, status, payment_status, mode, customer, customer_email,
                            client_reference_id, metadata, price, quantity, success_url, cancel_url,
                            subscription_metadata, subscription, created, expires_at, completed_at, allow_promotion_codes,
                            billing_address_collection, automatic_tax, trial_period_days)
                        values (:id, :status, :paymentStatus, :mode, :customer, :customerEmail, :clientReferenceId, :metadata::jsonb,
                            :price, :quantity, :successUrl, :cancelUrl, :subscriptionMetadata::jsonb, :subscription, :created,
                            :expiresAt, :completedAt, :allowPromotionCodes, :billingAddressCollection, :automaticTax, :trialPeriodDays)""",
                s);
    }

    public void update(StoredCheckoutSession s) {
        StoredRows.write(
                database,
                """
                        update sandbox.sandbox_checkout_sessions set status = :status, payment_status = :paymentStatus,
                            customer = :customer, subscription = :subscription, completed_at = :completedAt
                        where id = :id""",
                s);
    }

    public Optional<StoredCheckoutSession> checkoutSession(String id) {
        return CHECKOUT_SESSIONS.one(database, id);
    }

    public Optional<StoredCheckoutSession> lockCheckoutSession(String id) {
        return CHECKOUT_SESSIONS.locked(database, id);
    }

    // subscriptions

    public void insert(StoredSubscription s) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_subscriptions (id, customer, status, price, quantity, item_id, item_created,
                            billing_cycle_anchor, current_period_start, current_period_end, cancel_at_period_end,
                            cancel_at, canceled_at, ended_at, metadata, latest_invoice, created, trial_start, trial_end)
                        values (:id, :customer, :status, :price, :quantity, :itemId, :itemCreated, :billingCycleAnchor,
                            :currentPeriodStart, :currentPeriodEnd, :cancelAtPeriodEnd, :cancelAt, :canceledAt, :endedAt,
                            :metadata::jsonb, :latestInvoice, :created, :trialStart, :trialEnd)""",
                s);
    }

    public void update(StoredSubscription s) {
        StoredRows.write(
                database,
                """
                        update sandbox.sandbox_subscriptions set status = :status, price = :price,
                            billing_cycle_anchor = :billingCycleAnchor, current_period_start = :currentPeriodStart,
                            current_period_end = :currentPeriodEnd, cancel_at_period_end = :cancelAtPeriodEnd, cancel_at = :cancelAt,
                            canceled_at = :canceledAt, ended_at = :endedAt, metadata = :metadata::jsonb, latest_invoice = :latestInvoice,
                            trial_end = :trialEnd
                        where id = :id""",
                s);
    }

    /**
     * Whether the subscription's invoices are taxed automatically; kept beside the subscription's record (set once,
     * when it is made from a checkout session that enabled automatic tax).
     */
    public boolean automaticTax(String subscription) {
        return database.sql("select automatic_tax from sandbox.sandbox_subscriptions where id = ?")
                .param(subscription)
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }

    public void enableAutomaticTax(String subscription) {
        database.sql("update sandbox.sandbox_subscriptions set automatic_tax = true where id = ?")
                .param(subscription)
                .update();
    }

    public Optional<StoredSubscription> subscription(String id) {
        return SUBSCRIPTIONS.one(database, id);
    }

    public Optional<StoredSubscription> lockSubscription(String id) {
        return SUBSCRIPTIONS.locked(database, id);
    }

    /** The customer's subscriptions, newest first; {@code status} null: every one that has not ended. */
    public List<StoredSubscription> subscriptions(@Nullable String customer, @Nullable String status, int limit) {
        return database.sql(
                        """
                        select * from sandbox.sandbox_subscriptions
                        where (cast(:customer as text) is null or customer = :customer)
                          and (case when cast(:status as text) is null
                                    then status not in ('canceled', 'incomplete_expired')
                                    when :status = 'all' then true
                                    else status = :status end)
                        order by created desc, id desc limit :limit""")
                .param("customer", customer)
                .param("status", status)
                .param("limit", limit)
                .query(SUBSCRIPTIONS.rows())
                .list();
    }

    public List<StoredSubscription> lockPastDueSubscriptions(String customer) {
        return SUBSCRIPTIONS.lockedOfCustomer(database, "status = 'past_due'", customer);
    }

    // invoices

    public void insert(StoredInvoice i) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_invoices (id, customer, subscription, line_id, status, billing_reason, price,
                            quantity, amount_due, amount_paid, attempt_count, period_start, period_end,
                            line_period_start, line_period_end, number, created, finalized_at, paid_at, auto_advance,
                            finalizes_at, created_event, subtotal, discount, percent_off, amount_off, tax_country, tax_percent)
                        values (:id, :customer, :subscription, :lineId, :status, :billingReason, :price, :quantity, :amountDue,
                            :amountPaid, :attemptCount, :periodStart, :periodEnd, :linePeriodStart, :linePeriodEnd, :number, :created,
                            :finalizedAt, :paidAt, :autoAdvance, :finalizesAt, :createdEvent, :subtotal, :discount, :percentOff,
                            :amountOff, :taxCountry, :taxPercent)""",
                i);
    }

    public void update(StoredInvoice i) {
        StoredRows.write(
                database,
                """
                        update sandbox.sandbox_invoices set status = :status, amount_due = :amountDue, amount_paid = :amountPaid,
                            attempt_count = :attemptCount, finalized_at = :finalizedAt, paid_at = :paidAt, number = :number,
                            auto_advance = :autoAdvance, finalizes_at = :finalizesAt, created_event = :createdEvent,
                            subtotal = :subtotal, discount = :discount, percent_off = :percentOff, amount_off = :amountOff,
                            tax_country = :taxCountry, tax_percent = :taxPercent
                        where id = :id""",
                i);
    }

    public Optional<StoredInvoice> lockInvoice(String id) {
        return INVOICES.locked(database, id);
    }

    /**
     * The drafts that advance by themselves and are due now: their {@code invoice.created} was answered 2xx, or
     * their grace has passed.
     */
    public List<String> dueDrafts(long now, int limit) {
        return database.sql(
                        """
                        select i.id from sandbox.sandbox_invoices i
                        left join sandbox.sandbox_events e on e.id = i.created_event
                        where i.status = 'draft' and i.auto_advance
                          and (e.delivered_at is not null or i.finalizes_at <= ?)
                        order by i.created, i.id limit ?""")
                .params(now, limit)
                .query(String.class)
                .list();
    }

    /** The customer's drafts that advance by themselves, oldest first, locked. */
    public List<StoredInvoice> lockAutoAdvancingDrafts(String customer) {
        return INVOICES.lockedOfCustomer(database, "status = 'draft' and auto_advance", customer);
    }

    public Optional<StoredInvoice> invoice(String id) {
        return INVOICES.one(database, id);
    }

    public List<StoredInvoice> invoices(
            @Nullable String customer, @Nullable String subscription, @Nullable String status, int limit) {
        return database.sql(
                        """
                        select * from sandbox.sandbox_invoices
                        where (cast(:customer as text) is null or customer = :customer)
                          and (cast(:subscription as text) is null or subscription = :subscription)
                          and (cast(:status as text) is null or status = :status)
                        order by created desc, id desc limit :limit""")
                .param("customer", customer)
                .param("subscription", subscription)
                .param("status", status)
                .param("limit", limit)
                .query(INVOICES.rows())
                .list();
    }

    public List<StoredInvoice> lockOpenInvoices(String customer) {
        return INVOICES.lockedOfCustomer(database, "status = 'open'", customer);
    }

    /** The next invoice number of the customer, as Stripe numbers them: a prefix and a sequence. */
    public String nextInvoiceNumber(String customer) {
        long count = database.sql(
                        "select count(*) from sandbox.sandbox_invoices where customer = ? and number is not null")
                .param(customer)
                .query(Long.class)
                .single();
        return invoicePrefix(customer) + "-" + String.format("%04d", count + 1);
    }

    public static String invoicePrefix(String customer) {
        String suffix = customer.substring(customer.indexOf('_') + 1).toUpperCase();
        return suffix.length() > 8 ? suffix.substring(0, 8) : suffix;
    }

    // invoice items

    public void insert(StoredInvoiceItem item) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_invoice_items (id, customer, invoice, line_id, quantity, unit_amount_decimal,
                            amount, currency, description, period_start, period_end, metadata, created, proration)
                        values (:id, :customer, :invoice, :lineId, :quantity, :unitAmountDecimal, :amount, :currency, :description,
                            :periodStart, :periodEnd, :metadata::jsonb, :created, :proration)""",
                item);
    }

    /** Moves the customer's pending items onto the invoice and answers them, in creation order. */
    public List<StoredInvoiceItem> attachPendingItems(String customer, String invoice) {
        return database.sql(
                        """
                        with moved as (
                            update sandbox.sandbox_invoice_items set invoice = :invoice
                            where customer = :customer and invoice is null
                            returning *)
                        select * from moved order by seq""")
                .param("invoice", invoice)
                .param("customer", customer)
                .query(INVOICE_ITEMS.rows())
                .list();
    }

    public Optional<StoredInvoiceItem> invoiceItem(String id) {
        return INVOICE_ITEMS.one(database, id);
    }

    /**
     * A page of invoice items, newest first, as Stripe lists them: of one customer or of all, those after the item
     * {@code startingAfter} (an id of the previous page).
     */
    public List<StoredInvoiceItem> invoiceItems(@Nullable String customer, @Nullable String startingAfter, int limit) {
        return database.sql(
                        """
                        select * from sandbox.sandbox_invoice_items
                        where (cast(:customer as text) is null or customer = :customer)
                          and (cast(:after as text) is null
                               or seq < (select seq from sandbox.sandbox_invoice_items where id = :after))
                        order by seq desc limit :limit""")
                .param("customer", customer)
                .param("after", startingAfter)
                .param("limit", limit)
                .query(INVOICE_ITEMS.rows())
                .list();
    }

    public void deleteInvoiceItem(String id) {
        database.sql("delete from sandbox.sandbox_invoice_items where id = ?")
                .param(id)
                .update();
    }

    /** The items that are lines of the invoice, in the order they were added. */
    public List<StoredInvoiceItem> invoiceItems(String invoice) {
        return INVOICE_ITEMS.list(database, "where invoice = ? order by seq", invoice);
    }

    // portal sessions

    public void insert(StoredPortalSession p) {
        StoredRows.write(
                database,
                """
                        insert into sandbox.sandbox_portal_sessions (id, customer, return_url, created)
                        values (:id, :customer, :returnUrl, :created)""",
                p);
    }

    public Optional<StoredPortalSession> portalSession(String id) {
        return PORTAL_SESSIONS.one(database, id);
    }
}
