package com.kvportal.sandbox.store;

import com.kvportal.sandbox.SandboxDatabase;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import lombok.RequiredArgsConstructor;
import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.SimplePropertyRowMapper;
import org.springframework.stereotype.Repository;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** The SQL of the sandbox's Stripe objects. Methods named {@code lock...} take a row lock until commit. */
@Repository
@RequiredArgsConstructor
public class SandboxObjects {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final TypeReference<LinkedHashMap<String, String>> STRING_MAP = new TypeReference<>() {};

    private static final Table<StoredPrice> PRICES = new Table<>("sandbox.sandbox_prices", SandboxObjects::price);
    private static final Table<StoredCustomer> CUSTOMERS =
            new Table<>("sandbox.sandbox_customers", SandboxObjects::customer);
    private static final Table<StoredCheckoutSession> CHECKOUT_SESSIONS =
            new Table<>("sandbox.sandbox_checkout_sessions", SandboxObjects::checkoutSession);
    private static final Table<StoredSubscription> SUBSCRIPTIONS =
            new Table<>("sandbox.sandbox_subscriptions", SandboxObjects::subscription);
    private static final Table<StoredInvoiceItem> INVOICE_ITEMS =
            new Table<>("sandbox.sandbox_invoice_items", SandboxObjects::invoiceItem);
    // rows without JSON (or another name) read column by column into the record's components of the same names
    private static final Table<StoredInvoice> INVOICES =
            new Table<>("sandbox.sandbox_invoices", new SimplePropertyRowMapper<>(StoredInvoice.class));
    private static final Table<StoredPortalSession> PORTAL_SESSIONS =
            new Table<>("sandbox.sandbox_portal_sessions", new SimplePropertyRowMapper<>(StoredPortalSession.class));

    private final SandboxDatabase database;

    // prices

    public Optional<StoredPrice> price(String id) {
        return one(PRICES, id);
    }

    // customers

    public void insert(StoredCustomer customer) {
        database.sql(
                        """
                        insert into sandbox.sandbox_customers (id, email, name, metadata, card_outcome, created)
                        values (?, ?, ?, ?::jsonb, ?, ?)""")
                .params(
                        customer.id(),
                        customer.email(),
                        customer.name(),
                        json(customer.metadata()),
                        customer.card().value(),
                        customer.created())
                .update();
    }

    public void update(StoredCustomer customer) {
        database.sql(
                        """
                        update sandbox.sandbox_customers set email = ?, name = ?, metadata = ?::jsonb, card_outcome = ?
                        where id = ?""")
                .params(
                        customer.email(),
                        customer.name(),
                        json(customer.metadata()),
                        customer.card().value(),
                        customer.id())
                .update();
    }

    public Optional<StoredCustomer> customer(String id) {
        return one(CUSTOMERS, id);
    }

    public Optional<StoredCustomer> lockCustomer(String id) {
        return locked(CUSTOMERS, id);
    }

    // checkout sessions

    public void insert(StoredCheckoutSession s) {
        database.sql(
                        """
                        insert into sandbox.sandbox_checkout_sessions (id, status, payment_status, mode, customer, customer_email,
                            client_reference_id, metadata, price, quantity, success_url, cancel_url,
                            subscription_metadata, subscription, created, expires_at, completed_at)
                        values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?)""")
                .params(
                        s.id(),
                        s.status(),
                        s.paymentStatus(),
                        s.mode(),
                        s.customer(),
                        s.customerEmail(),
                        s.clientReferenceId(),
                        json(s.metadata()),
                        s.price(),
                        s.quantity(),
                        s.successUrl(),
                        s.cancelUrl(),
                        json(s.subscriptionMetadata()),
                        s.subscription(),
                        s.created(),
                        s.expiresAt(),
                        s.completedAt())
                .update();
    }

    public void update(StoredCheckoutSession s) {
        database.sql(
                        """
                        update sandbox.sandbox_checkout_sessions set status = ?, payment_status = ?, customer = ?,
                            subscription = ?, completed_at = ?
                        where id = ?""")
                .params(s.status(), s.paymentStatus(), s.customer(), s.subscription(), s.completedAt(), s.id())
                .update();
    }

    public Optional<StoredCheckoutSession> checkoutSession(String id) {
        return one(CHECKOUT_SESSIONS, id);
    }

    public Optional<StoredCheckoutSession> lockCheckoutSession(String id) {
        return locked(CHECKOUT_SESSIONS, id);
    }

    // subscriptions

    public void insert(StoredSubscription s) {
        database.sql(
                        """
                        insert into sandbox.sandbox_subscriptions (id, customer, status, price, quantity, item_id, item_created,
                            billing_cycle_anchor, current_period_start, current_period_end, cancel_at_period_end,
                            cancel_at, canceled_at, ended_at, metadata, latest_invoice, created)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?)""")
                .params(
                        s.id(),
                        s.customer(),
                        s.status(),
                        s.price(),
                        s.quantity(),
                        s.itemId(),
                        s.itemCreated(),
                        s.billingCycleAnchor(),
                        s.currentPeriodStart(),
                        s.currentPeriodEnd(),
                        s.cancelAtPeriodEnd(),
                        s.cancelAt(),
                        s.canceledAt(),
                        s.endedAt(),
                        json(s.metadata()),
                        s.latestInvoice(),
                        s.created())
                .update();
    }

    public void update(StoredSubscription s) {
        database.sql(
                        """
                        update sandbox.sandbox_subscriptions set status = ?, current_period_start = ?, current_period_end = ?,
                            cancel_at_period_end = ?, cancel_at = ?, canceled_at = ?, ended_at = ?, metadata = ?::jsonb,
                            latest_invoice = ?
                        where id = ?""")
                .params(
                        s.status(),
                        s.currentPeriodStart(),
                        s.currentPeriodEnd(),
                        s.cancelAtPeriodEnd(),
                        s.cancelAt(),
                        s.canceledAt(),
                        s.endedAt(),
                        json(s.metadata()),
                        s.latestInvoice(),
                        s.id())
                .update();
    }

    public Optional<StoredSubscription> subscription(String id) {
        return one(SUBSCRIPTIONS, id);
    }

    public Optional<StoredSubscription> lockSubscription(String id) {
        return locked(SUBSCRIPTIONS, id);
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
        return lockedOfCustomer(SUBSCRIPTIONS, "status = 'past_due'", customer);
    }

    // invoices

    public void insert(StoredInvoice i) {
        database.sql(
                        """
                        insert into sandbox.sandbox_invoices (id, customer, subscription, line_id, status, billing_reason, price,
                            quantity, amount_due, amount_paid, attempt_count, period_start, period_end,
                            line_period_start, line_period_end, number, created, finalized_at, paid_at, auto_advance,
                            finalizes_at, created_event)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        i.id(),
                        i.customer(),
                        i.subscription(),
                        i.lineId(),
                        i.status(),
                        i.billingReason(),
                        i.price(),
                        i.quantity(),
                        i.amountDue(),
                        i.amountPaid(),
                        i.attemptCount(),
                        i.periodStart(),
                        i.periodEnd(),
                        i.linePeriodStart(),
                        i.linePeriodEnd(),
                        i.number(),
                        i.created(),
                        i.finalizedAt(),
                        i.paidAt(),
                        i.autoAdvance(),
                        i.finalizesAt(),
                        i.createdEvent())
                .update();
    }

    public void update(StoredInvoice i) {
        database.sql(
                        """
                        update sandbox.sandbox_invoices set status = ?, amount_due = ?, amount_paid = ?, attempt_count = ?,
                            finalized_at = ?, paid_at = ?, number = ?, auto_advance = ?, finalizes_at = ?,
                            created_event = ?
                        where id = ?""")
                .params(
                        i.status(),
                        i.amountDue(),
                        i.amountPaid(),
                        i.attemptCount(),
                        i.finalizedAt(),
                        i.paidAt(),
                        i.number(),
                        i.autoAdvance(),
                        i.finalizesAt(),
                        i.createdEvent(),
                        i.id())
                .update();
    }

    public Optional<StoredInvoice> lockInvoice(String id) {
        return locked(INVOICES, id);
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
        return lockedOfCustomer(INVOICES, "status = 'draft' and auto_advance", customer);
    }

    public Optional<StoredInvoice> invoice(String id) {
        return one(INVOICES, id);
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
        return lockedOfCustomer(INVOICES, "status = 'open'", customer);
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
        database.sql(
                        """
                        insert into sandbox.sandbox_invoice_items (id, customer, invoice, line_id, quantity, unit_amount_decimal,
                            amount, currency, description, period_start, period_end, metadata, created)
                        values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)""")
                .params(
                        item.id(),
                        item.customer(),
                        item.invoice(),
                        item.lineId(),
                        item.quantity(),
                        item.unitAmountDecimal(),
                        item.amount(),
                        item.currency(),
                        item.description(),
                        item.periodStart(),
                        item.periodEnd(),
                        json(item.metadata()),
                        item.created())
                .update();
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
        return one(INVOICE_ITEMS, id);
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
        return database.sql("select * from sandbox.sandbox_invoice_items where invoice = ? order by seq")
                .param(invoice)
                .query(INVOICE_ITEMS.rows())
                .list();
    }

    // portal sessions

    public void insert(StoredPortalSession p) {
        database.sql(
                        "insert into sandbox.sandbox_portal_sessions (id, customer, return_url, created) values (?, ?, ?, ?)")
                .params(p.id(), p.customer(), p.returnUrl(), p.created())
                .update();
    }

    public Optional<StoredPortalSession> portalSession(String id) {
        return one(PORTAL_SESSIONS, id);
    }

    // mapping

    /** A table of the sandbox's objects and how its rows read. */
    private record Table<T>(String name, RowMapper<T> rows) {}

    /** The row with this id, if any. */
    private <T> Optional<T> one(Table<T> table, String id) {
        return byId(table, id, "");
    }

    /** The row with this id, if any, locked. */
    private <T> Optional<T> locked(Table<T> table, String id) {
        return byId(table, id, " for update");
    }

    private <T> Optional<T> byId(Table<T> table, String id, String lock) {
        return database.sql("select * from " + table.name() + " where id = ?" + lock)
                .param(id)
                .query(table.rows())
                .optional();
    }

    /** The customer's rows of {@code table} that meet {@code condition}, oldest first, locked. */
    private <T> List<T> lockedOfCustomer(Table<T> table, String condition, String customer) {
        return database.sql("select * from " + table.name() + " where customer = ? and " + condition
                        + " order by created, id for update")
                .param(customer)
                .query(table.rows())
                .list();
    }

    public static String json(Map<String, String> map) {
        return JSON.writeValueAsString(map);
    }

    public static Map<String, String> map(ResultSet rs, String column) throws SQLException {
        return JSON.readValue(rs.getString(column), STRING_MAP);
    }

    private static @Nullable Long nullableLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? null : value;
    }

    private static StoredPrice price(ResultSet rs, int n) throws SQLException {
        return new StoredPrice(
                rs.getString("id"),
                rs.getString("product"),
                rs.getString("nickname"),
                rs.getLong("unit_amount"),
                rs.getString("currency"),
                rs.getString("recurring_interval"),
                rs.getLong("created"));
    }

    private static StoredCustomer customer(ResultSet rs, int n) throws SQLException {
        return new StoredCustomer(
                rs.getString("id"),
                rs.getString("email"),
                rs.getString("name"),
                map(rs, "metadata"),
                CardOutcome.parse(rs.getString("card_outcome")).orElseThrow(),
                rs.getLong("created"));
    }

    private static StoredCheckoutSession checkoutSession(ResultSet rs, int n) throws SQLException {
        return new StoredCheckoutSession(
                rs.getString("id"),
                rs.getString("status"),
                rs.getString("payment_status"),
                rs.getString("mode"),
                rs.getString("customer"),
                rs.getString("customer_email"),
                rs.getString("client_reference_id"),
                map(rs, "metadata"),
                rs.getString("price"),
                rs.getLong("quantity"),
                rs.getString("success_url"),
                rs.getString("cancel_url"),
                map(rs, "subscription_metadata"),
                rs.getString("subscription"),
                rs.getLong("created"),
                rs.getLong("expires_at"),
                nullableLong(rs, "completed_at"));
    }

    private static StoredSubscription subscription(ResultSet rs, int n) throws SQLException {
        return new StoredSubscription(
                rs.getString("id"),
                rs.getString("customer"),
                rs.getString("status"),
                rs.getString("price"),
                rs.getLong("quantity"),
                rs.getString("item_id"),
                rs.getLong("item_created"),
                rs.getLong("billing_cycle_anchor"),
                rs.getLong("current_period_start"),
                rs.getLong("current_period_end"),
                rs.getBoolean("cancel_at_period_end"),
                nullableLong(rs, "cancel_at"),
                nullableLong(rs, "canceled_at"),
                nullableLong(rs, "ended_at"),
                map(rs, "metadata"),
                rs.getString("latest_invoice"),
                rs.getLong("created"));
    }

    private static StoredInvoiceItem invoiceItem(ResultSet rs, int n) throws SQLException {
        return new StoredInvoiceItem(
                rs.getString("id"),
                rs.getString("customer"),
                rs.getString("invoice"),
                rs.getString("line_id"),
                rs.getLong("quantity"),
                rs.getBigDecimal("unit_amount_decimal"),
                rs.getLong("amount"),
                rs.getString("currency"),
                rs.getString("description"),
                rs.getLong("period_start"),
                rs.getLong("period_end"),
                map(rs, "metadata"),
                rs.getLong("created"));
    }
}
